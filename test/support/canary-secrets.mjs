/**
 * Secret-shaped values in the environment of the test run's build (scripts/test.mjs, or global-setup.ts
 * when a lane runs alone): a value that shows up in web/dist was handed to the browser. Fixed, so a scan
 * can look for them in any build of the run. Plain JavaScript: scripts/test.mjs reads it before any
 * TypeScript loader exists.
 */
export const CANARY_SECRETS = Object.freeze({
  SESSION_SECRET: 'canary-session-secret-5d1c8e0f7a2b4c69',
  ADMIN_PASSWORD: 'canary-admin-password-93e07b1d',
  STRIPE_SECRET_KEY: 'sk_test_canary4f0c2a9e71b3',
  STRIPE_WEBHOOK_SECRET: 'whsec_canary8b62d0e4f913',
});
