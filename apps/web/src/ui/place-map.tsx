import { useEffect, useRef } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { LocationConfig } from '@mailwing/shared';
import './place-map.css';

interface PlaceMapProps {
  config: LocationConfig;
  /** The pin, and where the map centres when it moves. */
  place: { lat: number; lng: number } | null;
  zoom: number;
  /** A tap on the map (choose-location moves the pin there). */
  onPick?: (p: { lat: number; lng: number }) => void;
  onZoom?: (zoom: number) => void;
  label: string;
}

const WORLD: L.LatLngTuple = [30, 110];

/**
 * A raster map (Leaflet) of the configured tile server, with one pin. Only the location
 * pages import this, so Leaflet is in their lazy chunk, never in the first screen.
 * Tiles are plain <img>s from the tile origin, which the CSP allows for images only.
 */
export function PlaceMap({ config, place, zoom, onPick, onZoom, label }: PlaceMapProps) {
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const pin = useRef<L.CircleMarker | null>(null);
  const handlers = useRef({ onPick, onZoom });
  handlers.current = { onPick, onZoom };

  useEffect(() => {
    const m = L.map(box.current!, { zoomControl: true, attributionControl: true, worldCopyJump: true })
      .setView(place ? [place.lat, place.lng] : WORLD, place ? zoom : 3);
    L.tileLayer(config.tileUrl, {
      maxZoom: config.maxZoom,
      // The page itself sends no Referer (tokens travel in URLs); tile services ask who
      // is showing their tiles, and the origin alone says it without any path or token.
      referrerPolicy: 'strict-origin',
      attribution: config.attribution.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
    }).addTo(m);
    // Leaflet links its own name in the corner; the tile credit is what the licence asks for.
    m.attributionControl.setPrefix(false);
    m.on('click', (e: L.LeafletMouseEvent) => handlers.current.onPick?.({ lat: e.latlng.lat, lng: e.latlng.wrap().lng }));
    m.on('zoomend', () => handlers.current.onZoom?.(m.getZoom()));
    map.current = m;
    return () => {
      m.remove();
      map.current = null;
      pin.current = null;
    };
  }, [config.tileUrl]);

  useEffect(() => {
    const m = map.current;
    if (!m || !place) return;
    const at: L.LatLngTuple = [place.lat, place.lng];
    if (pin.current) pin.current.setLatLng(at);
    else pin.current = L.circleMarker(at, { radius: 10, color: '#fff', weight: 3, fillColor: '#e53935', fillOpacity: 1 }).addTo(m);
    m.setView(at, Math.max(m.getZoom(), zoom));
  }, [place?.lat, place?.lng]);

  return <div ref={box} className="mw-place-map" role="application" aria-label={label} data-testid="place-map" />;
}
