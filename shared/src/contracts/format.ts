// Display formats shared by server-rendered text (e-mails) and the web app. en-NZ, Pacific/Auckland.

const TIME_ZONE = 'Pacific/Auckland';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * "14 March 2027" for a calendar day (yyyy-MM-dd), as en-NZ writes it, without any time-zone shift.
 * Written out rather than through Intl: the first date formatter a page makes loads locale data, which
 * took over 300 ms of a 4x-throttled main thread (about 80 ms unthrottled here) on the home page.
 */
export function formatEventDate(day: string): string {
  const [year, month, date] = day.slice(0, 10).split('-').map(Number);
  return `${date} ${MONTHS[month! - 1]} ${year}`;
}

let dateTimeFormat: Intl.DateTimeFormat | undefined;

/** "14 March 2027 at 3:05 pm" for an instant, in New Zealand time. */
export function formatDateTime(value: string | Date): string {
  // Made once: making a formatter costs far more than formatting with it (admin tables have many rows).
  dateTimeFormat ??= new Intl.DateTimeFormat('en-NZ', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: TIME_ZONE,
  });
  return dateTimeFormat.format(new Date(value));
}

/** "NZ$12.50" and "NZ$1,270.00" from cents, "NZ$0.00" too: sums of money (totals, revenue, bundles). */
export function formatMoney(cents: number): string {
  // Thousands grouped as New Zealanders write them; no Intl, for the reason formatEventDate gives.
  return `NZ$${(cents / 100).toFixed(2).replace(/\B(?=(\d{3})+\.)/g, ',')}`;
}

/** "NZ$12.50" from cents; 0 is "Free": what a video costs. */
export function formatPrice(cents: number): string {
  return cents === 0 ? 'Free' : formatMoney(cents);
}

/** A video's length for people: "1 h 5 min", "3 min 20 s", "45 s". */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  return hours ? `${hours} h ${minutes} min` : minutes ? `${minutes} min ${rest} s` : `${rest} s`;
}
