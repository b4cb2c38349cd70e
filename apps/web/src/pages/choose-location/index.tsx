import { useEffect, useState } from 'react';
import { Button, Input, List, SearchBar, SpinLoading, Toast } from 'antd-mobile';
import { EnvironmentOutline } from 'antd-mobile-icons';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { formatCoordinate, MAP_DEFAULT_ZOOM, parseCoordinates, type LocationConfig, type Place } from '@mailwing/shared';
import { uploadedFileUrl } from '../../api/endpoints';
import { locationApi } from '../../api/location';
import { ApiError } from '../../api/request';
import { useLanguage } from '../../i18n';
import { useLocationT } from '../../i18n/location';
import { addLocationToMail, locationBlock, openLocationPath, openLocationUrl } from '../../state/location-choice';
import { Page } from '../../ui/page';
import { PlaceMap } from '../../ui/place-map';
import { ErrorState } from '../../ui/state-view';
import { TAB_ROUTES } from '../../ui/tab-layout';
import '../open-location/location.css';

/**
 * /choose-location (spec §2): pick a place by the device's position, a search (place names
 * when the server has a geocoder, coordinates always), or a tap on the map. Opened from
 * compose (?for=write) the place goes into the mail as a link and a small map; opened on its
 * own it leads to /open-location, whose link can be shared.
 */
export default function ChooseLocationPage() {
  const t = useLocationT();
  const language = useLanguage();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const forWrite = params.get('for') === 'write';
  const [config, setConfig] = useState<LocationConfig | null>(null);
  const [failed, setFailed] = useState(false);
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Place[] | null>(null);
  const [place, setPlace] = useState<Place | null>(null);
  const [zoom, setZoom] = useState(MAP_DEFAULT_ZOOM);
  const [locating, setLocating] = useState(false);
  const [busy, setBusy] = useState(false);

  const load = () => {
    setFailed(false);
    locationApi.config().then(setConfig, () => setFailed(true));
  };
  useEffect(load, []);

  const pick = (p: Place) => {
    setPlace(p);
    setResults(null);
  };

  const search = async (text: string) => {
    const q = text.trim();
    if (!q) return;
    const coords = parseCoordinates(q);
    if (coords) {
      pick({ ...coords, name: '' });
      return;
    }
    try {
      const found = await locationApi.search(q, language);
      setResults(found.places);
    } catch {
      // The request layer has said why (search off, geocoder down) in the user's language.
    }
  };

  const locate = () => {
    if (!('geolocation' in navigator)) {
      Toast.show({ content: t.locateFailed });
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition((pos) => {
      setLocating(false);
      pick({ lat: pos.coords.latitude, lng: pos.coords.longitude, name: '' });
    }, (err) => {
      setLocating(false);
      Toast.show({ content: err.code === err.PERMISSION_DENIED ? t.locateDenied : t.locateFailed });
    }, { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 });
  };

  const confirm = async () => {
    if (!place) {
      Toast.show({ content: t.nothingPicked });
      return;
    }
    const chosen = { ...place, name: place.name.trim() };
    if (!forWrite) {
      navigate(openLocationPath(chosen), { replace: true });
      return;
    }
    setBusy(true);
    let imageUrl: string | undefined;
    try {
      const map = await locationApi.staticMap({ ...chosen, zoom: Math.min(18, Math.max(2, Math.round(zoom))) });
      imageUrl = uploadedFileUrl(map.id);
    } catch (error) {
      // No picture (the toast said why): the link alone still leads to the place.
      if (!(error instanceof ApiError)) Toast.show({ content: t.locateFailed });
    }
    addLocationToMail(locationBlock(chosen, { label: t.linkWord, url: openLocationUrl(chosen), imageUrl, credit: config ? t.mapCredit(config.attribution) : undefined }));
    setBusy(false);
    if (imageUrl) Toast.show({ content: t.inserted });
    navigate(-1);
  };

  const footer = (
    <div className="mw-page-footer mw-location-footer">
      <Button block color="primary" size="large" loading={busy} disabled={!config} onClick={() => void confirm()} data-action="location-confirm">
        {forWrite ? t.insert : t.share}
      </Button>
    </div>
  );

  return (
    <Page title={t.chooseTitle} back={forWrite ? '/pages/write/index' : TAB_ROUTES.inbox} footer={config ? footer : undefined} bodyClassName="mw-location">
      {failed ? <ErrorState onRetry={load} /> : !config ? <div className="mw-center"><SpinLoading color="primary" /></div> : (
        <>
          <SearchBar
            className="mw-location-search"
            placeholder={config.search ? t.searchPlaceholder : t.coordinatesPlaceholder}
            value={query}
            onChange={setQuery}
            onSearch={(v) => void search(v)}
            onClear={() => setResults(null)}
          />
          {results && (
            <List className="mw-location-results">
              {results.length === 0 ? <List.Item>{t.noResults}</List.Item> : results.map((r, i) => (
                <List.Item key={`${r.lat},${r.lng},${i}`} onClick={() => pick(r)} prefix={<EnvironmentOutline />} description={`${formatCoordinate(r.lat)}, ${formatCoordinate(r.lng)}`}>
                  {r.name}
                </List.Item>
              ))}
            </List>
          )}
          <div className="mw-location-map">
            <PlaceMap config={config} place={place} zoom={zoom} label={t.tapHint} onZoom={setZoom} onPick={(p) => setPlace((old) => ({ ...p, name: old?.name ?? '' }))} />
            <Button className="mw-location-me" shape="rounded" loading={locating} onClick={locate} data-action="my-location" aria-label={t.myLocation}>
              <EnvironmentOutline /> {t.myLocation}
            </Button>
          </div>
          <div className="mw-location-card">
            {place ? (
              <>
                <div className="mw-location-coords" data-testid="picked-coords">{t.coordinates}: {formatCoordinate(place.lat)}, {formatCoordinate(place.lng)}</div>
                <label className="mw-location-name">
                  <span>{t.placeName}</span>
                  <Input value={place.name} maxLength={200} placeholder={t.placeNamePlaceholder} onChange={(name) => setPlace({ ...place, name })} clearable />
                </label>
              </>
            ) : <div className="mw-location-hint">{t.tapHint}</div>}
          </div>
        </>
      )}
    </Page>
  );
}
