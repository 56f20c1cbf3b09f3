package io.kavro.registry;


/** What a client says about a schema whose data contract rules Kavro cannot run, wherever the schema came from. */
final class DataContracts {
  private DataContracts() {}

  /**
   * The error for a schema with rules.
   *
   * @param operation what was being done
   * @param rules the rules, each as "kind name (type)", comma-separated
   */
  static UnsupportedRulesException refused(String operation, String rules) {
    return new UnsupportedRulesException(operation + " refused: the schema carries data contract rules that Kavro "
        + "cannot run: " + rules + "; writing or reading it without them could break the contract (plaintext "
        + "where it says encrypt): set rules.ignore=true to use it as if it had none", -1, -1, null, null);
  }
}
