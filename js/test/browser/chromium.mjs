// What the Chromium runners share: Debian's headless Chromium through
// playwright-core (no browser download), software WebGL, a page that
// collects its errors, and the "ok / FAIL" lines ending in a tally.
//   CHROMIUM=/usr/bin/chromium
import { chromium } from 'playwright-core';

/** Launches headless Chromium with SwiftShader WebGL. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
}

/** A new page whose console errors and uncaught exceptions go to `errors` (with `console: false`, uncaught ones only). */
export async function pageWithErrors(browser, opts = {}, { console: logged = true } = {}) {
  const page = await browser.newPage(opts);
  const errors = [];
  if (logged) page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors };
}

/** check(ok, what) prints a line and counts; done() prints the tally and exits 1 on a failure. */
export function checker() {
  let passed = 0, failed = 0;
  return {
    check(ok, what) {
      if (ok) passed++; else failed++;
      console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    },
    done() {
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
}
