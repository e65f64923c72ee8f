import path from 'node:path';
import express from 'express';
import { definePlugin } from '../../core';
import { registerAdminPages } from './admin/pages';
import { createReportsApp } from './app';
import { registerJobs } from './jobs';
import { ASSETS_PATH } from './mail/renderer';
import { reportMigrations } from './migrations';
import { ReportActions } from './routes/actions';
import { registerRestRoutes } from './routes/rest';
import { reportsService } from './services/reports-service';

/** Creator tier: scheduled e-mail reports with delivery logs (reports-and-share-links.md). */
export default definePlugin({
  name: 'reports',
  tier: 'creator',
  migrations: reportMigrations,
  register(ctx) {
    const app = createReportsApp(ctx);
    const actions = new ReportActions(app, ctx.clock);
    registerRestRoutes(ctx, app, actions);
    registerJobs(ctx, app);
    registerAdminPages(ctx, app, actions);
    ctx.services.provide('reports', reportsService(app, ctx.clock));
    // Mail clients and webmail pages on other origins load the logos.
    const assets = express.Router();
    assets.use(
      express.static(path.join(__dirname, 'views', 'assets'), {
        maxAge: '7d',
        setHeaders: (res) => res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin'),
      }),
    );
    ctx.http.mount(ASSETS_PATH, assets, { quiet: true });
  },
});
