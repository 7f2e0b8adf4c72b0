import nodemailer from 'nodemailer';
import { mailConfigured, type Config } from '@app/shared/config';
import type { Logger } from '@app/shared/logger';

export interface MailMessage {
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

/** SMTP through nodemailer; without SMTP_URL (or with MAIL_DISABLED) the message is logged instead. */
export function createMailer(config: Config, logger: Logger): Mailer {
  const smtp = mailConfigured(config);
  const transport =
    smtp && config.SMTP_URL
      ? nodemailer.createTransport(config.SMTP_URL)
      : nodemailer.createTransport({ jsonTransport: true });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.MAIL_FROM, ...message });
      if (!smtp)
        logger.info(
          { to: message.to, subject: message.subject, text: message.text },
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
