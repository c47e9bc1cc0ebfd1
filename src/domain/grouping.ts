/**
 * Appends `value` to the list of `key` in `map`, creating it. Groups are built by pushing: copying
 * a group to add an item (`[...(map.get(k) ?? []), v]`) made grouping quadratic in a group's size.
 */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
