import { SEARCH_MISS_DAYS } from '../privacy.ts';
import { business } from './site.ts';

// The privacy page (/privacy), in plain words, from what the product really keeps
// (shared/src/server/db/schema.ts) and for how long (the worker's retention-sweep,
// worker/src/jobs/retention-sweep.ts). When either changes, this changes with it. Browser-safe; the owner
// edits the words here.

/** The periods the page states; the site's own settings (RETENTION_* variables) fill them in. */
export interface RetentionPeriods {
  enquiryDays: number;
  jobRecordDays: number;
}

export const defaultRetention: RetentionPeriods = { enquiryDays: 730, jobRecordDays: 30 };

export interface PrivacySection {
  heading: string;
  paragraphs: string[];
  /** A list after the paragraphs. */
  points?: string[];
}

/** "2 years" for 730 days, "30 days" for 30. */
export function period(days: number): string {
  if (days % 365 === 0) {
    const years = days / 365;
    return `${years} ${years === 1 ? 'year' : 'years'}`;
  }
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

export const privacyIntro = `${business.name} films and photographs dance competitions, recitals and stage shows, and most of the people in these videos are children. This page says, in plain words, what this website keeps about you, why, for how long, and how to have something taken down.`;

export function privacySections(retention: RetentionPeriods = defaultRetention): PrivacySection[] {
  return [
    {
      heading: 'Videos and photos of performers',
      paragraphs: [
        'We film and photograph performances to give dancers and their families a record of them, and we sell videos of routines to pay for that work.',
        'A studio can ask for its showcase to be unlisted (only people with its link can find it) or to need an access code the studio hands out. Unlisted and access-code showcases are kept out of our video library, its search, our sitemap and search engines. Videos are kept out of search engines unless their showcase has been opened to them.',
        'Every photo we publish has its hidden camera data (such as the GPS location where it was taken) removed.',
      ],
    },
    {
      heading: 'Asking for a video to be taken down',
      paragraphs: [
        'Every video page, and every dancer’s page of a competition programme, has a “Request removal” link. A parent or guardian, the dancer, or their studio can tell us why; we answer by e-mail within 7 days.',
        'When we remove a dancer’s name from a programme, it disappears from every page and search at once.',
        'When we take a routine down, it disappears from every page, search result, preview and download link within a minute. People who bought it earlier see “This video has been withdrawn” instead of the video, and we decide with them about a refund.',
        'We keep a record of every video we hide, publish again, delete or take down, and of every dancer’s name we remove (when, and why), so we can show how a request was handled. We keep your request (who asked, why, and your e-mail) for as long as we keep enquiries once it is answered.',
      ],
    },
    {
      heading: 'What we keep, and for how long',
      paragraphs: ['We only keep what the site needs to work, and we delete it on a schedule:'],
      points: [
        `Enquiries from the contact form (your name, e-mail, the kind of event and your message): deleted ${period(retention.enquiryDays)} after you send them.`,
        'Purchases (your name, e-mail, what you bought, what you paid and the payment reference): kept as long as New Zealand law requires business records to be kept (at least seven years), so you can keep downloading what you bought. Your card details go to our payment provider, Stripe, and never reach us.',
        'Sign-in links to “My Videos”: we store only a scrambled copy of each link, which works once, for 30 minutes. Used and expired links are deleted within the hour.',
        'Signed-in sessions (for “My Videos”, and the owner’s own admin sign-in): deleted within the hour of expiring. A “My Videos” session lasts 30 days.',
        '“Tell me when it is online” (a routine or a dancer with no video yet): your e-mail, and what you asked about. We send one e-mail to confirm and nothing else until you do; then one e-mail when a video is online, and we delete your address as we send it. Unsent ones are deleted after 90 days, and every e-mail has a link to cancel.',
        `Records of the site’s background work (order-link syncs, failed e-mails and jobs): deleted after ${period(retention.jobRecordDays)}.`,
        'View, download and page-visit counts are kept as numbers only, without who watched.',
        `Searches in the video library that found nothing: only the words searched and how many times a day, without who searched, so we can fix a misspelt name or a wrong entry; deleted after ${SEARCH_MISS_DAYS} days.`,
      ],
    },
    {
      heading: 'Cookies and your browser',
      paragraphs: [
        'We use no advertising or tracking cookies. The site sets a cookie only when you need it to: when you sign in to “My Videos” (30 days), and when you type a showcase’s access code (it opens that showcase on that device for 30 days, and says nothing else). Your cart is kept in your own browser. If we count visits, we use a cookie-free service.',
        'To protect the site from floods and password guessing, our servers note the internet address each request comes from; limits on guessing are forgotten within the hour.',
      ],
    },
    {
      heading: 'Your rights',
      paragraphs: [
        'Under the Privacy Act 2020 you can ask to see what we hold about you and ask us to correct it. E-mail us and we will answer within 20 working days. If you are unhappy with our answer, you can complain to the Office of the Privacy Commissioner (privacy.org.nz).',
      ],
    },
  ];
}
