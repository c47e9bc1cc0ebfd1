// The AsyncAPI document of the live channel, rendered as its operations, channels and messages with
// their payload schemas. A small reader of our own: AsyncAPI's React renderer pulls in a DOM
// emulator and a parser several megabytes large for what is, here, one channel and a few messages.
(function () {
  'use strict';
  var main = document.getElementById('asyncapi');
  var status = document.getElementById('status');

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      if (c) node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }

  /** Follows local $refs (#/components/...), guarding against cycles. */
  function resolver(doc) {
    return function resolve(node, seen) {
      seen = seen || [];
      if (!node || typeof node !== 'object' || typeof node.$ref !== 'string') return node;
      if (seen.indexOf(node.$ref) >= 0 || node.$ref.indexOf('#/') !== 0) return node;
      var target = node.$ref
        .slice(2)
        .split('/')
        .reduce(function (at, part) {
          return at && at[part.replace(/~1/g, '/').replace(/~0/g, '~')];
        }, doc);
      return target ? resolve(target, seen.concat(node.$ref)) : node;
    };
  }

  function typeOf(schema) {
    if (!schema) return '';
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.enum) return schema.enum.map(function (v) { return JSON.stringify(v); }).join(' | ');
    var t = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type || (schema.oneOf ? 'one of' : schema.anyOf ? 'any of' : schema.properties ? 'object' : '');
    if (t === 'array' && schema.items) t = 'array of ' + (typeOf(schema.items) || 'items');
    return t;
  }

  function schemaView(schema, resolve, depth) {
    schema = resolve(schema);
    if (!schema || typeof schema !== 'object') return null;
    if (depth > 6) return el('p', { text: '…' });
    var rows = [];
    var props = schema.properties || (schema.items && resolve(schema.items).properties);
    var required = schema.required || (schema.items && resolve(schema.items).required) || [];
    if (props) {
      Object.keys(props).forEach(function (name) {
        var p = resolve(props[name]);
        var nested = p && (p.properties || (p.items && resolve(p.items).properties) || p.oneOf || p.anyOf) ? schemaView(p, resolve, depth + 1) : null;
        rows.push(
          el('tr', {}, [
            el('td', {}, [el('code', { text: name }), required.indexOf(name) >= 0 ? el('span', { class: 'required', text: ' required' }) : null]),
            el('td', { text: typeOf(p) }),
            el('td', {}, [p && p.description ? p.description : '', nested]),
          ]),
        );
      });
    }
    var alternatives = schema.oneOf || schema.anyOf;
    var parts = [];
    if (schema.description && depth === 0) parts.push(el('p', { text: schema.description }));
    if (rows.length) parts.push(el('table', { class: 'schema' }, [el('thead', {}, [el('tr', {}, [el('th', { text: 'Field' }), el('th', { text: 'Type' }), el('th', { text: 'Meaning' })])]), el('tbody', {}, rows)]));
    if (alternatives) {
      parts.push(el('p', { text: schema.oneOf ? 'One of:' : 'Any of:' }));
      parts.push(el('ol', {}, alternatives.map(function (a) { var r = resolve(a); return el('li', {}, [r && r.title ? el('strong', { text: r.title + ' ' }) : null, typeOf(r), schemaView(r, resolve, depth + 1)]); })));
    }
    if (!rows.length && !alternatives && depth === 0) parts.push(el('p', {}, [el('code', { text: typeOf(schema) || 'any' })]));
    return el('div', { class: 'schema-view' }, parts);
  }

  function messageView(message, resolve, key) {
    message = resolve(message);
    var examples = (message.examples || []).map(function (ex) {
      return el('pre', {}, [el('code', { text: JSON.stringify(ex.payload !== undefined ? ex.payload : ex, null, 2) })]);
    });
    return el('section', { class: 'message' }, [
      el('h4', {}, [el('code', { text: message.name || key }), message.title ? ' ' + message.title : '']),
      message.summary ? el('p', { text: message.summary }) : null,
      message.description ? el('p', { text: message.description }) : null,
      message.payload ? schemaView(message.payload, resolve, 0) : null,
      examples.length ? el('details', {}, [el('summary', { text: 'Example' })].concat(examples)) : null,
    ]);
  }

  function render(doc) {
    var resolve = resolver(doc);
    var info = doc.info || {};
    main.replaceChildren(
      el('h1', { text: (info.title || 'Live events') + (info.version ? ' ' + info.version : '') }),
      el('p', { class: 'muted', text: 'AsyncAPI ' + (doc.asyncapi || '?') + ' · the document: ' + main.dataset.url }),
    );
    if (info.description) main.appendChild(el('p', { text: info.description }));
    var servers = doc.servers || {};
    if (Object.keys(servers).length) {
      main.appendChild(el('h2', { text: 'Servers' }));
      main.appendChild(el('ul', {}, Object.keys(servers).map(function (k) {
        var s = resolve(servers[k]);
        return el('li', {}, [el('code', { text: k }), ' ' + (s.protocol || '') + ' ' + (s.host || '') + (s.pathname || '') + (s.description ? ': ' + s.description : '')]);
      })));
    }
    var operations = doc.operations || {};
    main.appendChild(el('h2', { text: 'Operations' }));
    main.appendChild(el('p', { class: 'muted', text: 'Directions as seen from your client: "you send" is a Socket.IO emit of yours, "you receive" an event the server pushes to you.' }));
    Object.keys(operations).forEach(function (id) {
      var op = resolve(operations[id]);
      var channel = resolve(op.channel) || {};
      var messages = (op.messages && op.messages.length ? op.messages : Object.values(channel.messages || {})).map(function (m, i) { return messageView(m, resolve, id + '#' + i); });
      // The document describes the client's side (AsyncAPI 3: the actions of the application
      // described), which is the reader's: send is what your client emits, receive what it is sent.
      var action = op.action === 'send' ? 'you send (client → server)' : op.action === 'receive' ? 'you receive (server → client)' : op.action;
      main.appendChild(el('section', { class: 'operation', id: 'op-' + id }, [
        el('h3', {}, [el('span', { class: 'badge ' + op.action, text: action }), ' ', el('code', { text: id }), channel.address ? ' on ' : '', channel.address ? el('code', { text: channel.address }) : null]),
        op.summary ? el('p', { text: op.summary }) : null,
        op.description ? el('p', { text: op.description }) : null,
      ].concat(messages)));
    });
    var schemes = (doc.components && doc.components.securitySchemes) || {};
    if (Object.keys(schemes).length) {
      main.appendChild(el('h2', { text: 'Authentication' }));
      main.appendChild(el('ul', {}, Object.keys(schemes).map(function (k) {
        var s = resolve(schemes[k]);
        return el('li', {}, [el('code', { text: k }), ' ' + (s.type || '') + (s.description ? ': ' + s.description : '')]);
      })));
    }
  }

  fetch(main.dataset.url, { headers: { accept: 'application/json' } })
    .then(function (res) {
      if (!res.ok) throw new Error(main.dataset.url + ' answered ' + res.status);
      return res.json();
    })
    .then(render)
    .catch(function (err) {
      status.textContent = 'Could not load the AsyncAPI document: ' + err.message;
    });
})();
