import type { RequestListener } from 'node:http';
import express from 'express';
import compression from 'compression';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Deps } from './deps.ts';
import { apiNotFound, errorHandler } from './http/errors.ts';
import { redactUrl, requestIdOf } from './http/request-log.ts';
import { trustedProxies } from './http/client-address.ts';
import { createLoadShedder } from './http/load-shedding.ts';
import { gaugeOf } from './http/metrics.ts';
import { ADMIN_PREFIXES, createAdminRouter } from './http/admin-router.ts';
import { sameOriginWrites, sessionMiddleware } from './http/session.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { adminSessionRoutes, registerLogout } from './features/admin-session/admin-session.routes.ts';
import { registerJobRoutes } from './features/jobs/jobs.routes.ts';
import { publicListRoutes } from './features/public-lists/public-lists.routes.ts';
import { contactRoutes, registerAdminContactRoutes } from './features/contacts/contacts.routes.ts';
import { sitePictureRoutes } from './features/pictures/site-pictures.routes.ts';
import {
  registerUploadedPhotoAdminRoutes,
  uploadedPhotoRoutes,
} from './features/pictures/uploaded-photos.routes.ts';
import { videoRoutes } from './features/videos/videos.routes.ts';
import {
  registerAdminTestimonialRoutes,
  testimonialRoutes,
} from './features/testimonials/testimonials.routes.ts';
import { checkoutRoutes } from './features/checkout/checkout.routes.ts';
import { stripeWebhookRoutes } from './features/checkout/stripe-webhook.routes.ts';
import { fileRoutes } from './features/files/files.routes.ts';
import {
  registerVideoProcessingRoutes,
  videoClipRoutes,
} from './features/video-processing/video-processing.routes.ts';
import { registerVideoAdminRoutes } from './features/video-admin/video-admin.routes.ts';
import { registerAdminEventRoutes } from './features/events/events.routes.ts';
import { registerPortfolioRoutes } from './features/portfolio/portfolio.routes.ts';
import { registerUploadRoutes } from './features/uploads/uploads.routes.ts';
import { registerBulkUploadRoutes } from './features/bulk-uploads/bulk-uploads.routes.ts';
import { registerPurchaseRoutes } from './features/purchases/purchases.routes.ts';
import { purchaseStatusRoutes } from './features/purchases/purchase-status.routes.ts';
import { registerSyncRoutes } from './features/sync/sync.routes.ts';
import { metricsRoutes } from './features/ops/metrics.routes.ts';
import { registerQueueDashboard } from './features/ops/queue-dashboard.routes.ts';
import { buyerLibraryRoutes } from './features/buyer-library/buyer-library.routes.ts';
import { documentRoutes, registerGstRoutes } from './features/gst/gst.routes.ts';
import { registerReminderAdminRoutes, reminderRoutes } from './features/checkout/reminders.routes.ts';
import { privacyRoutes, registerPrivacyAdminRoutes } from './features/privacy/privacy.routes.ts';
import { registerProgrammeAdminRoutes } from './features/programmes/programme-admin.routes.ts';
import { registerSeasonViewRoutes } from './features/season-view/season-view.routes.ts';
import { registerSearchMissRoutes } from './features/search-misses/search-misses.routes.ts';
import { programmeRoutes } from './features/programmes/programmes.routes.ts';
import { programmeSearchRoute } from './features/programmes/programme-search.route.ts';
import {
  onlineAlertRoutes,
  registerOnlineAlertAdminRoutes,
} from './features/online-alerts/online-alerts.routes.ts';
import { webRoutes } from './site/web.ts';
import { sitemapRoutes } from './site/sitemaps.ts';

export const JSON_BODY_LIMIT = '1mb';

/**
 * The whole HTTP application, without listening, so tests can drive it directly. `programmeSearch`
 * is the route answered before Express (createRequestHandler); the app answers it too, so a test
 * that drives the app reaches the same code.
 */
export function createApp(
  deps: Deps,
  programmeSearch = programmeSearchRoute(deps, {
    logRequest: requestLogger(deps),
    securityHeaders: securityHeaders(deps),
  }),
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustedProxies(deps.config));
  app.set('query parser', 'simple');

  app.use((req, res, next) => programmeSearch(req, res) || next());
  app.use(requestLogger(deps));
  app.use(securityHeaders(deps));

  // Video bytes stream straight to the socket: compression would only wrap every write of them.
  app.use(fileRoutes(deps));
  app.use(videoClipRoutes(deps));
  // Pages and JSON; the web app's assets come precompressed (web.ts), pictures and videos are not compressible.
  // HLS playlists too (not in compression's list): each line carries the same signed token, so a
  // 10-minute video's media playlist (300 segments, about 85 KB) becomes a few KB, and that is on the way
  // to the first picture (decision 031).
  app.use(
    compression({
      filter: (req, res) =>
        /^application\/vnd\.apple\.mpegurl/i.test(String(res.getHeader('Content-Type') ?? '')) ||
        compression.filter(req, res),
    }),
  );

  app.use(metricsRoutes(deps));
  app.use(healthRoutes(deps));
  app.use(stripeWebhookRoutes(deps));
  app.use(express.json({ limit: JSON_BODY_LIMIT }));

  app.use([...ADMIN_PREFIXES], sessionMiddleware(deps), sameOriginWrites(deps));
  app.use(adminSessionRoutes(deps));
  app.use(sitePictureRoutes(deps));
  app.use(publicListRoutes(deps));
  app.use(uploadedPhotoRoutes(deps));
  app.use(testimonialRoutes(deps));
  app.use(contactRoutes(deps));
  app.use(videoRoutes(deps));
  app.use(checkoutRoutes(deps));
  app.use(purchaseStatusRoutes(deps));
  app.use(documentRoutes(deps));
  app.use(reminderRoutes(deps));
  app.use(buyerLibraryRoutes(deps));
  app.use(privacyRoutes(deps));
  app.use(programmeRoutes(deps));
  app.use(onlineAlertRoutes(deps));

  const admin = createAdminRouter();
  registerLogout(admin);
  registerJobRoutes(admin, deps);
  registerAdminContactRoutes(admin, deps);
  registerAdminEventRoutes(admin, deps);
  registerVideoAdminRoutes(admin, deps);
  registerAdminTestimonialRoutes(admin, deps);
  registerUploadRoutes(admin, deps);
  registerBulkUploadRoutes(admin, deps);
  registerVideoProcessingRoutes(admin, deps);
  registerPortfolioRoutes(admin, deps);
  registerUploadedPhotoAdminRoutes(admin, deps);
  registerPurchaseRoutes(admin, deps);
  registerGstRoutes(admin, deps);
  registerReminderAdminRoutes(admin, deps);
  registerSyncRoutes(admin, deps);
  registerPrivacyAdminRoutes(admin, deps);
  registerQueueDashboard(admin, deps);
  registerProgrammeAdminRoutes(admin, deps);
  registerSeasonViewRoutes(admin, deps);
  registerSearchMissRoutes(admin, deps);
  registerOnlineAlertAdminRoutes(admin, deps);
  app.use(admin);

  app.use('/api', apiNotFound);
  app.use(sitemapRoutes(deps));
  app.use(webRoutes(deps));
  app.use(errorHandler);
  return app;
}

/**
 * The api's request handler: the kept public lists answer first (PublicCache; refusing them would
 * cost as much as serving them), then the per-address limit sheds floods, then "find your dancer"
 * (decision 039), then Express.
 */
export function createRequestHandler(deps: Deps): RequestListener {
  const programmeSearch = programmeSearchRoute(deps, {
    logRequest: requestLogger(deps),
    securityHeaders: securityHeaders(deps),
  });
  const app = createApp(deps, programmeSearch);
  const shed = createLoadShedder(deps.config);
  gaugeOf(
    deps.metrics,
    'http_requests_shed',
    'Requests refused by the per-address limit before Express, since the api started',
    () => shed.refused,
  );
  return (req, res) =>
    deps.publicCache.serve(req, res, () => shed(req, res) || programmeSearch(req, res) || void app(req, res));
}

/** One log line per request (pino-http), for Express and for the routes answered before it. */
export function requestLogger(deps: Deps) {
  return pinoHttp({
    logger: deps.logger,
    genReqId: (req, res) => {
      const id = requestIdOf(req);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // Bearer values in URLs (a buyer's session id, a file link's signature) stay out of the logs.
    serializers: {
      req: ({
        query: _query,
        params: _params,
        ...req
      }: {
        url?: string;
        query?: unknown;
        params?: unknown;
      }) => ({
        ...req,
        url: req.url && redactUrl(req.url),
      }),
      // The status alone: the response's headers are the same security headers on every line, and
      // the login's carried the admin's session cookie.
      res: ({ statusCode }: { statusCode?: number }) => ({ statusCode }),
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
  });
}

/** The security headers of every answer (helmet), for Express and for the routes answered before it. */
export function securityHeaders(deps: Deps) {
  const analytics = deps.config.ANALYTICS_SCRIPT_URL
    ? [new URL(deps.config.ANALYTICS_SCRIPT_URL).origin]
    : [];
  // With S3, the browser plays, downloads and uploads straight from the bucket.
  const bucket = deps.storage.browserOrigin ? [deps.storage.browserOrigin] : [];
  return helmet({
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'", ...analytics],
        // Event images may be any https link the owner types in.
        'img-src': ["'self'", 'data:', 'blob:', 'https:', ...bucket],
        'media-src': ["'self'", 'blob:', ...bucket],
        'connect-src': ["'self'", ...analytics, ...bucket],
      },
    },
  });
}
