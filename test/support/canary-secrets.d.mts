export declare const CANARY_SECRETS: Readonly<{
  SESSION_SECRET: string;
  ADMIN_PASSWORD: string;
  STRIPE_SECRET_KEY: string;
  STRIPE_WEBHOOK_SECRET: string;
}>;
