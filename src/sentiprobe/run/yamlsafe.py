"""A safe YAML loader for configs people write by hand: ``yaml.SafeLoader`` plus three refusals.

- **Duplicate keys**: YAML keeps the last of two equal keys in a mapping without a word, so a config edited in
  two places runs with half of the edit; here it is an error naming both lines (merge keys ``<<`` still
  override as YAML specifies).
- **Nesting** deeper than ``max_depth``: the composer recurses once per level (a list nested 5,000 deep raised
  RecursionError).
- **Alias expansion**: aliases are shared nodes, so a few lines can stand for 10^9 values (a "billion laughs"), or
  for infinitely many (``&a [*a]``); loading is cheap but every later walk (validation, hashing, printing) is not.
  The document's size with every alias expanded is counted on the node graph (memoised, linear in its nodes) and
  refused above ``max_values``.
"""
from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

_MERGE_TAG = "tag:yaml.org,2002:merge"


def _expanded_size(root: Node, limit: int) -> int:
    """Values in the document with aliases expanded (stops counting past ``limit``); iterative, memoised. A
    node that contains itself (``&a [*a]``) expands without end: ``limit + 1``."""
    size: dict[int, int] = {}
    open_: set[int] = set()  # nodes whose children are being counted
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in size:
            continue
        children: list[Node] = []
        if isinstance(node, SequenceNode):
            children = list(node.value)
        elif isinstance(node, MappingNode):
            children = [n for kv in node.value for n in kv]
        if not done:
            if id(node) in open_:
                return limit + 1  # reached again from inside itself: a recursive alias
            open_.add(id(node))
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in size)
            continue
        open_.discard(id(node))
        size[id(node)] = min(limit + 1, 1 + sum(size.get(id(c), 0) for c in children))
    return size[id(root)]


def _loader(max_depth: int, max_values: int) -> type[yaml.SafeLoader]:
    class Loader(yaml.SafeLoader):
        _depth = 0

        def compose_node(self, parent: Node | None, index: Any) -> Node:
            self._depth += 1
            try:
                if self._depth > max_depth:
                    raise ComposerError(None, None, f"nested deeper than {max_depth} levels",
                                        self.peek_event().start_mark)
                return super().compose_node(parent, index)  # type: ignore[misc]
            finally:
                self._depth -= 1

        def compose_document(self) -> Node:
            node = super().compose_document()  # type: ignore[misc]
            if node is not None and _expanded_size(node, max_values) > max_values:
                raise ComposerError(None, None, f"the document expands to more than {max_values:,} values "
                                                "(through YAML aliases); write the values out or use fewer aliases",
                                    node.start_mark)
            return node

        def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
            if isinstance(node, MappingNode):
                seen: dict[tuple[str, str], Any] = {}
                for key_node, _ in node.value:
                    if not isinstance(key_node, ScalarNode) or key_node.tag == _MERGE_TAG:
                        continue
                    key = (key_node.tag, key_node.value)
                    if key in seen:
                        raise ConstructorError(
                            "while constructing a mapping", node.start_mark,
                            f"found the key {key_node.value!r} twice (first on line {seen[key].line + 1}); YAML would "
                            "keep the last value silently", key_node.start_mark)
                    seen[key] = key_node.start_mark
            return super().construct_mapping(node, deep)

    return Loader


def load_yaml(text: str, *, max_depth: int = 64, max_values: int = 100_000) -> Any:
    """``yaml.safe_load(text)`` with the refusals of the module docstring (each a ``yaml.YAMLError``)."""
    return yaml.load(text, Loader=_loader(max_depth, max_values))  # a SafeLoader subclass
