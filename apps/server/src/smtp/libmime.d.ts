// libmime ships no types; only what sender-auth.ts uses is declared.
declare module 'libmime' {
  const libmime: { foldLines(text: string, lineLength?: number, afterSpace?: boolean): string };
  export default libmime;
}
