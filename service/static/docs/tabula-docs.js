// Starts Swagger UI on /docs (a file, not inline: the page's CSP allows no inline script).
"use strict";
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  // BaseLayout: without the standalone top bar, whose logo is an inline
  // <style> the page's CSP would refuse (and its URL box: this page shows
  // this server's spec only).
  presets: [SwaggerUIBundle.presets.apis],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: "BaseLayout",
  validatorUrl: null,
});
