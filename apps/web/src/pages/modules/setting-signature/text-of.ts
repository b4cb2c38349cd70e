/** The text of a piece of HTML, for one-line previews: line breaks and blocks become spaces. */
export const textOf = (html: string) =>
  new DOMParser().parseFromString(html.replace(/<br\s*\/?>|<\/(p|div|li|h\d)>/gi, ' $&'), 'text/html').body.textContent?.replace(/\s+/g, ' ').trim() ?? '';
