// The user's API key, kept in this browser's localStorage (never sent anywhere but this server's API).
(function () {
  'use strict';
  var STORAGE_KEY = 'odds.apiKey';
  function get() {
    try {
      return localStorage.getItem(STORAGE_KEY) || '';
    } catch (e) {
      return '';
    }
  }
  function set(key) {
    try {
      if (key) localStorage.setItem(STORAGE_KEY, key);
      else localStorage.removeItem(STORAGE_KEY);
    } catch (e) {
      // storage refused (private mode): the key lives for this page only
    }
  }
  /** Fills the form's input with the stored key and calls onKey(key) on submit (and at once when one is stored). */
  function bindForm(form, input, onKey) {
    input.value = get();
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var key = input.value.trim();
      set(key);
      onKey(key);
    });
    if (input.value) onKey(input.value);
  }
  window.OddsApiKey = { get: get, set: set, bindForm: bindForm };
})();
