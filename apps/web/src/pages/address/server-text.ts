/** A 422's fields (already in the UI language, by their reason codes) as antd-mobile Form field errors. */
export function formErrors(fields: Readonly<Record<string, string>>): Array<{ name: string; errors: string[] }> {
  return Object.entries(fields).map(([name, text]) => ({ name, errors: [text] }));
}
