package io.kavro.release;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * The public API of compiled classes as text: each public type's declaration, then its public and protected members,
 * sorted, one a line, as {@code javap -protected} prints them (generic signatures included). Package-private types
 * are left out, and so are module and package descriptors. The text is sorted by type, so the order of the class
 * files and of the members in them does not change it.
 */
final class ApiBaseline {
  private ApiBaseline() {}

  /** The API of the classes under this folder (a module's target/classes). */
  static String of(Path classes) {
    List<String> files;
    try (Stream<Path> walk = Files.walk(classes)) {
      files = walk.filter(file -> file.toString().endsWith(".class"))
          .filter(file -> !file.startsWith(classes.resolve("META-INF")))
          .map(Path::toString)
          .filter(file -> !file.endsWith("module-info.class") && !file.endsWith("package-info.class"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + classes, e);
    }
    if (files.isEmpty()) {
      throw new IllegalStateException("no classes in " + classes + ": compile the module first");
    }
    Map<String, String> types = new TreeMap<>();
    parse(javap(classes, files), types);
    StringBuilder text = new StringBuilder();
    types.values().forEach(text::append);
    return text.toString();
  }

  private static String javap(Path classes, List<String> files) {
    ToolProvider javap = ToolProvider.findFirst("javap")
        .orElseThrow(() -> new IllegalStateException("this JDK has no javap tool"));
    List<String> args = new ArrayList<>(List.of("-protected"));
    args.addAll(files);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = javap.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), args.toArray(String[]::new));
    if (exit != 0) {
      throw new IllegalStateException("javap failed with " + exit + " on " + classes + ": "
          + err.toString(StandardCharsets.UTF_8) + out.toString(StandardCharsets.UTF_8));
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Splits javap's output into types (a declaration ending in '{', indented members, '}'), keeping public ones. */
  private static void parse(String output, Map<String, String> types) {
    String declaration = null;
    List<String> members = new ArrayList<>();
    for (String line : output.split("\n")) {
      if (line.startsWith("Compiled from") || line.isBlank()) {
        continue;
      }
      if (declaration == null) {
        if (line.endsWith("{")) {
          declaration = line.substring(0, line.length() - 1).strip();
          members.clear();
        }
      } else if (line.equals("}")) {
        if (declaration.startsWith("public ") || declaration.startsWith("protected ")) {
          StringBuilder type = new StringBuilder(declaration).append('\n');
          members.stream().sorted().forEach(member -> type.append("  ").append(member).append('\n'));
          types.put(name(declaration), type.toString());
        }
        declaration = null;
      } else {
        members.add(line.strip());
      }
    }
  }

  /** The type's binary name: the word after class, interface, enum or record, before any type parameters. */
  private static String name(String declaration) {
    String[] words = declaration.split(" ");
    for (int i = 0; i < words.length - 1; i++) {
      if (words[i].equals("class") || words[i].equals("interface") || words[i].equals("enum")
          || words[i].equals("@interface")) {
        String name = words[i + 1];
        int generic = name.indexOf('<');
        return generic < 0 ? name : name.substring(0, generic);
      }
    }
    return declaration;
  }
}
