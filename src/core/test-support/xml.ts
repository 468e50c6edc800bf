/** An element of a parsed XML document: what the JUnit tests read. */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  readonly text: string;
}

const NAME = /^[A-Za-z_][\w.-]*/;
const ENTITY = /^&(amp|lt|gt|quot|apos|#\d+|#x[0-9A-Fa-f]+);/;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
// XML 1.0 Char: tab, newline, carriage return, and U+0020 up, without lone surrogates, U+FFFE or U+FFFF.
const NOT_CHAR =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A strict parser for the XML the JUnit writer produces (elements, attributes, text, the five entities and
 * character references; no DTD, comments or CDATA): throws on anything that is not well-formed, where a
 * lenient DOM parser would guess. A test helper, so that "the JUnit file parses" can fail.
 */
export function parseXml(source: string): XmlElement {
  if (NOT_CHAR.test(source)) throw new Error('a character XML 1.0 does not allow');
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at offset ${at}: ${JSON.stringify(source.slice(at, at + 30))}`);
  };
  const decode = (raw: string): string => {
    let out = '';
    for (let index = 0; index < raw.length; index += 1) {
      const char = raw[index] ?? '';
      if (char === '<') fail('a "<" in text or an attribute');
      if (char !== '&') {
        out += char;
        continue;
      }
      const entity = ENTITY.exec(raw.slice(index));
      if (entity === null) fail('a bare "&"');
      const name = entity?.[1] ?? '';
      out += name.startsWith('#x')
        ? String.fromCodePoint(parseInt(name.slice(2), 16))
        : name.startsWith('#')
          ? String.fromCodePoint(Number(name.slice(1)))
          : (ENTITIES[name] ?? '');
      index += (entity?.[0].length ?? 1) - 1;
    }
    return out;
  };
  const skipSpace = () => {
    while (/\s/.test(source[at] ?? '')) at += 1;
  };
  const element = (): XmlElement => {
    if (source[at] !== '<') fail('expected an element');
    at += 1;
    const name = NAME.exec(source.slice(at))?.[0] ?? fail('expected an element name');
    at += name.length;
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = at;
      skipSpace();
      if (source.startsWith('/>', at)) {
        at += 2;
        return { name, attributes, children: [], text: '' };
      }
      if (source[at] === '>') {
        at += 1;
        break;
      }
      if (at === before) fail('expected a space before an attribute');
      const attribute = NAME.exec(source.slice(at))?.[0] ?? fail('expected an attribute name');
      at += attribute.length;
      if (source[at] !== '=' || source[at + 1] !== '"') fail('expected ="');
      const end = source.indexOf('"', at + 2);
      if (end === -1) fail('an unterminated attribute');
      if (Object.hasOwn(attributes, attribute)) fail(`attribute ${attribute} given twice`);
      attributes[attribute] = decode(source.slice(at + 2, end));
      at = end + 1;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      const next = source.indexOf('<', at);
      if (next === -1) fail(`element ${name} is not closed`);
      text += decode(source.slice(at, next));
      at = next;
      if (source.startsWith(`</${name}>`, at)) {
        at += name.length + 3;
        return { name, attributes, children, text };
      }
      if (source.startsWith('</', at)) fail(`a closing tag that does not close ${name}`);
      children.push(element());
    }
  };
  if (source.startsWith('<?xml')) {
    const end = source.indexOf('?>');
    if (end === -1) fail('an unterminated declaration');
    at = end + 2;
  }
  skipSpace();
  const root = element();
  skipSpace();
  if (at !== source.length) fail('content after the root element');
  return root;
}

/** Every element of a tree with this name, in document order. */
export function elementsNamed(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (node: XmlElement) => {
    if (node.name === name) found.push(node);
    node.children.forEach(visit);
  };
  visit(root);
  return found;
}
