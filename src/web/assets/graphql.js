// GraphiQL on /graphql with the user's API key in the Authorization header of every request.
(function () {
  'use strict';
  var host = document.getElementById('graphiql');
  var status = document.getElementById('status');
  var root = ReactDOM.createRoot(host);
  var DEFAULT_QUERY = '# Enter your API key above, then run this query (Ctrl-Enter).\n{\n  __typename\n}\n';

  function render(key) {
    var headers = key ? { Authorization: 'Bearer ' + key } : {};
    var fetcher = GraphiQL.createFetcher({ url: '/graphql', headers: headers });
    root.render(React.createElement(GraphiQL, { fetcher: fetcher, defaultQuery: DEFAULT_QUERY, key: key || 'no-key' }));
    status.textContent = key ? 'Requests carry your key.' : 'No key: every data field answers UNAUTHENTICATED.';
  }

  window.OddsApiKey.bindForm(document.getElementById('key-form'), document.getElementById('api-key'), render);
  if (!window.OddsApiKey.get()) render('');
})();
