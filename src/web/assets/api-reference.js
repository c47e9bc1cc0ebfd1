// The REST reference: Scalar's standalone bundle renders the served OpenAPI document. Everything that
// would reach another host is switched off: its web fonts (site.css puts system fonts in their place), telemetry, the AI
// agent, MCP and the hosted developer tools.
(function () {
  'use strict';
  var host = document.getElementById('rest-reference');
  window.Scalar.createApiReference(host, {
    url: host.dataset.openapiUrl,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    hideClientButton: true,
    persistAuth: true,
    authentication: { preferredSecurityScheme: 'bearerAuth' },
  });
})();
