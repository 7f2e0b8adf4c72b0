import nodemailer from 'nodemailer';
import { UnrecoverableError } from 'bullmq';
import { mailConfigured, type Config } from '@app/shared/config';
import type { Logger } from '@app/shared/logger';

export interface MailMessage {
  /** What kind of e-mail it is, the only thing logged of it where mail is off outside development. */
  kind:
    | 'receipt'
    | 'enquiry'
    | 'security-alert'
    | 'buyer-sign-in'
    | 'checkout-reminder'
    | 'tax-document'
    | 'removal-request'
    | 'online-alert';
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

/**
 * SMTP through nodemailer; without SMTP_URL (or with MAIL_DISABLED) the message is logged instead:
 * whole on a developer's machine, only its kind in production or on an https site.
 */
export function createMailer(config: Config, logger: Logger): Mailer {
  const smtp = mailConfigured(config);
  const developing = config.NODE_ENV !== 'production' && !config.secureCookies;
  const transport =
    smtp && config.SMTP_URL
      ? nodemailer.createTransport(config.SMTP_URL)
      : nodemailer.createTransport({ jsonTransport: true });
  return {
    async send({ kind, ...message }) {
      const info = await transport.sendMail({ from: config.MAIL_FROM, ...message });
      if (!smtp)
        logger.info(
          // A developer's machine gets the whole message (its links are how sign-in is tried out);
          // anywhere else the logs would hold sign-in tokens, download links and buyers' addresses.
          developing ? { kind, to: message.to, subject: message.subject, text: message.text } : { kind },
          'mail (not sent: mail is not configured)',
        );
      return { messageId: info.messageId };
    },
    close() {
      transport.close();
    },
  };
}

/** SMTP answers 5xx for a message that will never be accepted; retrying cannot help. */
export function isPermanentMailError(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Sends a job's e-mail; a message the server will never take fails the job for good, not for a retry. */
export async function sendMail(mailer: Mailer, message: MailMessage): Promise<void> {
  try {
    await mailer.send(message);
  } catch (error) {
    if (isPermanentMailError(error))
      throw new UnrecoverableError(`Mail refused: ${(error as Error).message}`);
    throw error;
  }
}

/** Text for an e-mail's HTML part. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
