import { useEffect, useMemo, useState } from 'react';
import { Button, SpinLoading, Toast } from 'antd-mobile';
import { useSearchParams } from 'react-router-dom';
import { formatCoordinate, MAP_DEFAULT_ZOOM, placeFromQuery, type LocationConfig } from '@mailwing/shared';
import { locationApi } from '../../api/location';
import { useLocationT } from '../../i18n/location';
import { Page } from '../../ui/page';
import { PlaceMap } from '../../ui/place-map';
import { ErrorState } from '../../ui/state-view';
import { TAB_ROUTES } from '../../ui/tab-layout';
import './location.css';

/**
 * /open-location?lat=&lng=&name= (spec §2): the place a mail's location link names, on a map.
 * Needs no session: the link's reader may not be logged in here.
 */
export default function OpenLocationPage() {
  const t = useLocationT();
  const [params] = useSearchParams();
  const place = useMemo(() => placeFromQuery(params), [params]);
  const [config, setConfig] = useState<LocationConfig | null>(null);
  const [failed, setFailed] = useState(false);

  const load = () => {
    setFailed(false);
    locationApi.config().then(setConfig, () => setFailed(true));
  };
  useEffect(load, []);

  if (!place) {
    return (
      <Page title={t.openTitle} back={TAB_ROUTES.inbox}>
        <div className="mw-state" role="alert"><div className="mw-state-text" data-testid="bad-location">{t.badLink}</div></div>
      </Page>
    );
  }
  const coords = `${formatCoordinate(place.lat)}, ${formatCoordinate(place.lng)}`;
  // RFC 5870 geo: URI; phones hand it to their map app.
  const geo = `geo:${formatCoordinate(place.lat)},${formatCoordinate(place.lng)}?q=${formatCoordinate(place.lat)},${formatCoordinate(place.lng)}${place.name ? `(${encodeURIComponent(place.name)})` : ''}`;
  const copy = () => {
    navigator.clipboard?.writeText(coords).then(() => Toast.show({ content: t.copied }), () => undefined);
  };

  return (
    <Page title={t.openTitle} back={TAB_ROUTES.inbox} bodyClassName="mw-location">
      {failed ? <ErrorState onRetry={load} /> : !config ? <div className="mw-center"><SpinLoading color="primary" /></div> : (
        <>
          <div className="mw-location-map mw-location-map-tall">
            <PlaceMap config={config} place={place} zoom={MAP_DEFAULT_ZOOM} label={place.name || coords} />
          </div>
          <div className="mw-location-card">
            <div className="mw-location-title" data-testid="place-name">{place.name || t.unnamed}</div>
            <div className="mw-location-coords">{t.coordinates}: {coords}</div>
            <div className="mw-location-actions">
              <Button onClick={copy} data-action="copy-coords">{t.copy}</Button>
              <a className="adm-button adm-button-primary adm-button-fill-outline mw-location-app" href={geo} data-action="open-app">{t.openInApp}</a>
            </div>
          </div>
        </>
      )}
    </Page>
  );
}
