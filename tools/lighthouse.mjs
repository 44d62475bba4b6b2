// One Lighthouse run (mobile, the default settings) for tools/lighthouse.py:
//
//     node tools/lighthouse.mjs URL REPORT.json [COOKIE_NAME COOKIE_VALUE]
//
// The session cookie goes into the browser's own cookie jar before the page loads, so that
// every request of the page carries it: the page's event stream and polls too, which a
// Cookie header given to Lighthouse (--extra-headers) does not reach.
import fs from 'node:fs';

import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const [url, report, name, value] = process.argv.slice(2);
const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu'],
});
try {
    const page = await browser.newPage();
    if (name) {
        await browser.setCookie({name, value, url, httpOnly: true, sameSite: 'Lax'});
    }
    // A fresh browser starts with an empty cache; resetting storage would drop the cookie.
    const result = await lighthouse(url, {
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        disableStorageReset: true,
    }, undefined, page);
    fs.writeFileSync(report, result.report);
} finally {
    await browser.close();
}
