/** The text of a piece of HTML, for one-line previews. */
export const textOf = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
