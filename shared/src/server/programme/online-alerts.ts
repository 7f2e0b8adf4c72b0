import { sql, type SQL } from 'drizzle-orm';
import { sellableVideoV } from '../sales/availability.ts';
import { purposeKey, sign, verifySignature } from '../signing.ts';

// "Tell me when it is online" (decision 035), shared by the api (requests, confirm, unsubscribe) and
// the worker (the e-mails). A link's token is an HMAC of the alert's id and its action under a key of
// its own: nothing secret is stored, and a confirm link cannot unsubscribe (or the other way round).

export type OnlineAlertAction = 'confirm' | 'unsubscribe';

/** Days an unconfirmed or unanswered alert is kept (the retention sweep deletes it then). */
export const ONLINE_ALERT_DAYS = 90;

const key = (secret: string) => purposeKey(secret, 'online-alert');

export const onlineAlertToken = (secret: string, id: string, action: OnlineAlertAction) =>
  sign(key(secret), `${action}:${id}`);

export const checkOnlineAlertToken = (secret: string, id: string, action: OnlineAlertAction, token: string) =>
  verifySignature(key(secret), `${action}:${id}`, token);

/** The page a link in the e-mail opens (GET shows a button; a POST to it is RFC 8058's one click). */
export function onlineAlertUrl(publicUrl: string, secret: string, id: string, action: OnlineAlertAction) {
  const url = new URL(`/online-alerts/${encodeURIComponent(id)}/${action}`, publicUrl);
  url.searchParams.set('t', onlineAlertToken(secret, id, action));
  return url.toString();
}

/** A video that answers an alert: published, and one a visitor can buy or watch now (not failed nor still processing). */
export const onlineVideoV = sql`v.published and ${sellableVideoV}`;

/**
 * How many routines of an alert's entry or dancer have a published video a visitor can see (a
 * published showcase) and buy: the alert is answered when this grows past what it was when asked for.
 */
export function onlineRoutineCount(entryId: SQL, dancerId: SQL) {
  return sql`(select count(*)::int from programme_entries e join showcases s on s.id = e.showcase_id
    where e.id in (select ${entryId}::text
        union all select ed.entry_id from programme_entry_dancers ed where ed.dancer_id = ${dancerId}::text)
      and s.published and exists (select 1 from videos v where v.entry_id = e.id and ${onlineVideoV}))`;
}
