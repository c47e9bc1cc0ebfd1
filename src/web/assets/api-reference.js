// The REST reference: Scalar's standalone bundle renders the served OpenAPI document. Fonts come from
// the page's own styles (withDefaultFonts: false), so nothing is loaded from another host.
(function () {
  'use strict';
  var host = document.getElementById('api-reference');
  window.Scalar.createApiReference(host, {
    url: host.dataset.url,
    withDefaultFonts: false,
    hideClientButton: true,
    telemetry: false,
    persistAuth: true,
    authentication: { preferredSecurityScheme: 'bearerAuth' },
  });
})();
