package io.kavro.rules.cel;

import java.util.Arrays;

/**
 * Where an inline validation walk is, as a stack of fields, array positions and map entry positions, rendered as
 * text ({@code items[2].name}, {@code scores[#0]}, {@code <root>}) only when a violation names it: the walk
 * allocates nothing per element. Not thread-safe: one per walk.
 */
final class WalkPath {
  /** A field's name, or null for a position. */
  private String[] names = new String[8];
  /** A position: {@code i} for an array element, {@code -1 - i} for a map's entry; unused for a field. */
  private int[] positions = new int[8];
  private int depth;

  void field(String name) {
    push(name, 0);
  }

  void element(int index) {
    push(null, index);
  }

  void entry(int index) {
    push(null, -1 - index);
  }

  void pop() {
    depth--;
  }

  private void push(String name, int position) {
    if (depth == names.length) {
      names = Arrays.copyOf(names, depth * 2);
      positions = Arrays.copyOf(positions, depth * 2);
    }
    names[depth] = name;
    positions[depth] = position;
    depth++;
  }

  /** The path as violations name it. */
  String render() {
    if (depth == 0) {
      return "<root>";
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      if (names[i] != null) {
        if (i > 0) {
          text.append('.');
        }
        text.append(names[i]);
      } else if (positions[i] >= 0) {
        text.append('[').append(positions[i]).append(']');
      } else {
        text.append("[#").append(-1 - positions[i]).append(']');
      }
    }
    return text.toString();
  }
}
