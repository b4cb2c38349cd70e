const pad = (n: number): string => String(n).padStart(2, '0');

/** A moment as "YYYY-MM-DD hh:mm" in local time, for times that must be read exactly (a timed send). */
export function formatDateTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A day as "MM-DD" this year, else "YYYY-MM-DD", in local time (a search's date range). */
export function formatDate(seconds: number, now = new Date()): string {
  const d = new Date(seconds * 1000);
  const day = `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return d.getFullYear() === now.getFullYear() ? day : `${d.getFullYear()}-${day}`;
}
