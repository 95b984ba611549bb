// RFC 6902 JSON patches as the server writes them (games/state_patches.py): add, remove, replace.
// applyPatch changes `document` in place and returns it (a new value when the root is replaced);
// it throws on a path that does not fit, and the caller then asks for the whole state again.
// Values are used as they are: they come from a freshly parsed message, shared with nothing.

function unescape(token) {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

function parent(document, path) {
  const tokens = path.split("/").slice(1).map(unescape);
  const last = tokens.pop();
  let node = document;
  for (const token of tokens) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) throw new Error(`no ${path}`);
    node = node[token];
  }
  if (node === null || typeof node !== "object") throw new Error(`no parent for ${path}`);
  return { node, last };
}

function index(list, token, path, allowEnd) {
  if (allowEnd && token === "-") return list.length;
  const at = Number(token);
  if (!/^(0|[1-9][0-9]*)$/.test(token) || at > list.length || (!allowEnd && at === list.length)) throw new Error(`bad index in ${path}`);
  return at;
}

export function applyPatch(document, operations) {
  for (const { op, path, value } of operations) {
    if (path === "") {
      if (op !== "replace" && op !== "add") throw new Error(`cannot ${op} the whole document`);
      document = value;
      continue;
    }
    const { node, last } = parent(document, path);
    if (Array.isArray(node)) {
      if (op === "add") node.splice(index(node, last, path, true), 0, value);
      else if (op === "remove") node.splice(index(node, last, path, false), 1);
      else if (op === "replace") node[index(node, last, path, false)] = value;
      else throw new Error(`unknown op ${op}`);
    } else {
      if (op !== "add" && !Object.hasOwn(node, last)) throw new Error(`no ${path}`);
      if (op === "add" || op === "replace") node[last] = value;
      else if (op === "remove") delete node[last];
      else throw new Error(`unknown op ${op}`);
    }
  }
  return document;
}
