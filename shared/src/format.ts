// Display formats shared by server-rendered text (e-mails) and the web app. en-NZ, Pacific/Auckland.

const TIME_ZONE = 'Pacific/Auckland';

/** "14 March 2027" for a calendar day (yyyy-MM-dd), without any time-zone shift. */
export function formatEventDate(day: string): string {
  const date = new Date(`${day.slice(0, 10)}T12:00:00Z`);
  return new Intl.DateTimeFormat('en-NZ', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

/** "14 March 2027, 3:05 pm" for an instant, in New Zealand time. */
export function formatDateTime(value: string | Date): string {
  return new Intl.DateTimeFormat('en-NZ', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: TIME_ZONE,
  }).format(new Date(value));
}

/** "NZ$12.50" from cents; 0 is "Free". */
export function formatPrice(cents: number): string {
  return cents === 0 ? 'Free' : `NZ$${(cents / 100).toFixed(2)}`;
}
