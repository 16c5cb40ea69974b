// A lint rule of the project's own: no function longer than `max` lines of its own — its
// whole span less the spans of the functions written inside it (handlers, callbacks and
// helpers are measured on their own). ESLint's max-lines-per-function counts those nested
// functions into the outer one, which would push a React component's handlers out of it.
const FUNCTION = ['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'];

/** @type {import('eslint').Rule.RuleModule} */
export const maxOwnLines = {
  meta: {
    type: 'suggestion',
    docs: { description: 'limit the lines a function has of its own (nested functions aside)' },
    schema: [
      { type: 'object', properties: { max: { type: 'integer', minimum: 1 } }, additionalProperties: false },
    ],
    messages: {
      tooLong:
        '{{name}} has {{own}} lines of its own (over {{max}}): split it into named pieces a reader can hold.',
    },
  },
  create(context) {
    const max = context.options[0]?.max ?? 120;
    /** @type {{ node: import('estree').Node, nested: number }[]} */
    const stack = [];
    const span = (node) => node.loc.end.line - node.loc.start.line + 1;
    const nameOf = (node) => {
      if (node.id?.name) return `function ${node.id.name}`;
      const p = node.parent;
      if (p?.type === 'VariableDeclarator' && p.id.type === 'Identifier') return `function ${p.id.name}`;
      if ((p?.type === 'MethodDefinition' || p?.type === 'Property') && p.key.type === 'Identifier')
        return `method ${p.key.name}`;
      return `the function at line ${node.loc.start.line}`;
    };
    const enter = (node) => {
      const outer = stack.at(-1);
      if (outer) outer.nested += span(node);
      stack.push({ node, nested: 0 });
    };
    const exit = (node) => {
      const { nested } = stack.pop();
      const own = span(node) - nested;
      if (own > max) context.report({ node, messageId: 'tooLong', data: { name: nameOf(node), own, max } });
    };
    return Object.fromEntries(
      FUNCTION.flatMap((t) => [
        [t, enter],
        [`${t}:exit`, exit],
      ]),
    );
  },
};

export default { rules: { 'max-own-lines': maxOwnLines } };
