import { useSettingsT } from '../../i18n/settings';
import { Page } from '../../ui/page';
import '../setting/settings.css';

/** User agreement and privacy (spec §2: the page has no title in its bar). */
export default function AgreementPage() {
  const m = useSettingsT();
  return (
    <Page title={m.titleAgreement} navTitle="" back="/pages/setting/index">
      <article className="mw-agreement">
        <h1>{m.titleAgreement}</h1>
        <p>{m.agreementIntro}</p>
        {m.agreementSections.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            <ol>
              {section.paragraphs.map((p) => <li key={p}>{p}</li>)}
            </ol>
          </section>
        ))}
        <p className="mw-muted">{m.agreementContact}</p>
      </article>
    </Page>
  );
}
