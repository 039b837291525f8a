/**
 * How to point each tracker app at this vehicle's beacon: the URL to paste and the setting that
 * carries the device id. Every app feeds the same ingestion (docs/user-guide.md "Connect other device apps").
 * Derived from the beacon's OsmAnd URL, so it follows the server's APP_URL.
 */
interface AppGuide {
  app: string;
  url: string;
  idField: string;
  note: string;
}

export function connectGuides(osmandUrl: string, deviceId: string): AppGuide[] {
  const base = osmandUrl.replace(/\/osmand$/, "");
  return [
    {
      app: "Traccar Client",
      url: osmandUrl,
      idField: "Device identifier",
      note: "Server URL field; the protocol is OsmAnd.",
    },
    {
      app: "OsmAnd",
      url: `${osmandUrl}?id=${deviceId}&lat={0}&lon={1}&timestamp={2}&hdop={3}&altitude={4}&speed={5}&bearing={6}`,
      idField: "id= in the URL",
      note: "Trip recording, Online tracking: paste the whole URL as the web address.",
    },
    {
      app: "OwnTracks",
      url: `${base}/owntracks`,
      idField: "Device ID (sent as the X-Limit-D header)",
      note: "Mode HTTP; paste the URL as Host/URL.",
    },
    {
      app: "Overland",
      url: `${base}/overland?device_id=${deviceId}`,
      idField: "Device ID setting, or device_id= in the URL",
      note: "Receiver Endpoint.",
    },
    {
      app: "GPSLogger",
      url: `${osmandUrl}?id=${deviceId}&lat=%LAT&lon=%LON&timestamp=%TIMESTAMP&speed=%SPD_KN&bearing=%DIR&altitude=%ALT&accuracy=%ACC&batt=%BATT`,
      idField: "id= in the URL",
      note: "Log to custom URL, method GET.",
    },
  ];
}

export function ConnectApps({ osmandUrl, deviceId }: { osmandUrl: string; deviceId: string }) {
  return (
    <details className="connect-apps" data-testid="connect-apps">
      <summary>Other apps, or by hand</summary>
      <dl className="facts">
        {connectGuides(osmandUrl, deviceId).map((g) => (
          <div key={g.app} data-testid={`connect-${g.app.toLowerCase().replace(/\s+/g, "-")}`}>
            <dt>{g.app}</dt>
            <dd className="mono">{g.url}</dd>
            <dd className="muted">
              Device id: {g.idField}. {g.note}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
