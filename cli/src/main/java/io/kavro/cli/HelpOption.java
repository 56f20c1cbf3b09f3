package io.kavro.cli;

import picocli.CommandLine.Option;

/** {@code -h}/{@code --help} alone, for the commands whose {@code --version} is an option of their own. */
final class HelpOption {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;
}
