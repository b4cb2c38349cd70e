/** An error smtp-server answers with its responseCode and message (the text starts with the RFC 3463 enhanced code). */
export type SmtpReply = Error & { responseCode: number };

export const smtpReply = (code: number, text: string): SmtpReply => Object.assign(new Error(text), { responseCode: code });
