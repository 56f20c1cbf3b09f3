package io.kavro.serde;

import io.kavro.registry.config.RegistryConfig;
import io.kavro.serde.subject.AssociatedNameStrategy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Finds the settings that look like a mistyped Kavro key, which Kafka would otherwise pass over in silence (its
 * "supplied but are not used yet" line lists the valid keys beside them). A key that is neither Kavro's, nor one of
 * Confluent's that Kavro knows, nor a Kafka client's is suspect when:
 * <ul>
 *   <li>it is within two edits (insertions, deletions, substitutions, swaps of two neighbouring
 *       characters: the optimal string alignment distance, ignoring case) of a Kavro key;
 *   <li>it starts with a prefix that only Kavro's and Confluent's serde keys have, and no Kafka client key
 *       ({@code schema.}, {@code avro.}, {@code basic.auth.}, {@code rule.}...: docs/configuration.md lists them);
 *   <li>it starts with one of Connect's converter prefixes ({@code value.converter.}...), which Connect removes before
 *       a converter sees a key, and the rest is a Kavro key or suspect itself: the prefix was given twice, or the key
 *       went to a serde instead of a converter.
 * </ul>
 * Each suspect key gives one warning that names the Kavro key meant: the nearest one.
 *
 * <p>Immutable and thread-safe.
 */
public final class ConfigKeyCheck {
  /** The most edits between a suspect key and the Kavro key it is taken for. */
  static final int MAX_DISTANCE = 2;

  /**
   * The prefixes of Kavro's and Confluent's serde and registry keys that no Kafka client key has
   * ({@code ConfigKeyCheckTest} checks them against the producer's, consumer's and admin client's keys).
   */
  static final List<String> PREFIXES = List.of("schema.", "avro.", "specific.avro.", "kavro.", "basic.auth.",
      "bearer.auth.", "auto.register.", "use.latest.", "use.schema.", "latest.", "id.compatibility.",
      "key.subject.", "value.subject.", "key.schema.id.", "value.schema.id.", "key.reader.", "value.reader.",
      "key.framing.", "value.framing.", "rule.", "rules.", "missing.", "proxy.", "subject.name.strategy.");

  /** Connect's converter prefixes, which Connect removes before a converter sees a key. */
  static final List<String> CONNECT_PREFIXES = List.of("key.converter.", "value.converter.", "header.converter.");

  /** Families whose every key is Kavro's: the registry's request headers, the rule executors' and actions' settings. */
  static final List<String> FAMILIES = List.of(RegistryConfig.REQUEST_HEADER_PREFIX, RuleSettings.EXECUTORS + ".",
      RuleSettings.ACTIONS + ".");

  /**
   * Confluent's serde and registry keys that Kavro knows and does not read (docs/coming-from-confluent.md), and
   * the registry client's own name of {@code schema.registry.url.randomize}: never suspect. Confluent's
   * {@code schema.registry.ssl.*} keys, every Kafka client SSL key under that prefix, and the keys that Kavro
   * refuses or warns of ({@link ConfluentKeys}) are added to them.
   */
  static final Set<String> CONFLUENT_KEYS = Set.of("url.randomize");

  /**
   * The keys of the default subject name strategy, {@link AssociatedNameStrategy}, which reads them itself from the
   * serde's settings.
   */
  static final List<String> STRATEGY_KEYS = List.of(AssociatedNameStrategy.FALLBACK_TYPE_CONFIG,
      AssociatedNameStrategy.CACHE_SIZE_CONFIG, AssociatedNameStrategy.CACHE_EXPIRY_SECS_CONFIG,
      AssociatedNameStrategy.KAFKA_CLUSTER_ID_CONFIG);

  /**
   * The serde's check: Kavro's keys ({@link AvroSerdeConfig#configDef()} and {@link #STRATEGY_KEYS}), Confluent's
   * and Kafka's clients'.
   */
  public static final ConfigKeyCheck SERDE = new ConfigKeyCheck(AvroSerdeConfig.configDef().names(), otherKeys())
      .withKeys(STRATEGY_KEYS);

  /** Sorted: of two keys as near to a suspect one, the first in order is named. */
  private final SortedSet<String> kavroKeys;
  private final Set<String> otherKeys;

  /**
   * @param kavroKeys the keys the plugin reads, which warnings suggest
   * @param otherKeys keys that are not the plugin's but are never suspect (Confluent's, Kafka's)
   */
  ConfigKeyCheck(Collection<String> kavroKeys, Collection<String> otherKeys) {
    this.kavroKeys = Collections.unmodifiableSortedSet(new TreeSet<>(kavroKeys));
    this.otherKeys = Set.copyOf(otherKeys);
  }

  /** This check with {@code keys} added to the plugin's own: a converter's, say. */
  public ConfigKeyCheck withKeys(Collection<String> keys) {
    Set<String> all = new HashSet<>(kavroKeys);
    all.addAll(keys);
    return new ConfigKeyCheck(all, otherKeys);
  }

  /**
   * One warning for each suspect key of {@code keys}, in the keys' order: {@code unknown Kavro setting
   * 'specific.avro.readr': did you mean 'specific.avro.reader'? It is ignored.} Empty when none is suspect.
   */
  public List<String> warnings(Collection<String> keys) {
    List<String> warnings = new ArrayList<>();
    for (String key : new TreeSet<>(keys)) {
      String meant = meant(key);
      if (meant != null) {
        warnings.add("unknown Kavro setting '" + key + "': did you mean '" + meant + "'? It is ignored.");
      }
    }
    return warnings;
  }

  /** The Kavro key that a suspect {@code key} stands for, or {@code null} when it is not suspect. */
  private String meant(String key) {
    if (kavroKeys.contains(key) || otherKeys.contains(key) || FAMILIES.stream().anyMatch(key::startsWith)) {
      return null;
    }
    for (String prefix : CONNECT_PREFIXES) {
      if (key.startsWith(prefix)) {
        String rest = key.substring(prefix.length());
        return kavroKeys.contains(rest) ? rest : meant(rest);
      }
    }
    String lower = key.toLowerCase(Locale.ROOT);
    String nearest = closest(lower, kavroKeys);
    boolean owned = PREFIXES.stream().anyMatch(lower::startsWith);
    return nearest != null && (owned || distance(lower, nearest) <= MAX_DISTANCE) ? nearest : null;
  }

  /**
   * The one of {@code candidates} that {@code key} is a typo of: the nearest within {@link #MAX_DISTANCE} edits
   * (insertions, deletions, substitutions, swaps of two neighbouring characters), case ignored; of two as near, the
   * first in order. For a tool's own keys, as the serdes' warnings use it for Kavro's.
   *
   * @return the candidate meant, or empty when none is that near
   */
  public static Optional<String> nearest(String key, Collection<String> candidates) {
    String lower = key.toLowerCase(Locale.ROOT);
    String nearest = closest(lower, candidates);
    return nearest != null && distance(lower, nearest.toLowerCase(Locale.ROOT)) <= MAX_DISTANCE
        ? Optional.of(nearest) : Optional.empty();
  }

  /** The candidate nearest to a lower-case {@code key}, case ignored (the first in order of two as near). */
  private static String closest(String key, Collection<String> candidates) {
    String nearest = null;
    int best = Integer.MAX_VALUE;
    for (String candidate : new TreeSet<>(candidates)) {
      int distance = distance(key, candidate.toLowerCase(Locale.ROOT));
      if (distance < best) {
        best = distance;
        nearest = candidate;
      }
    }
    return nearest;
  }

  /**
   * The optimal string alignment distance (Damerau-Levenshtein without edits of a substring twice): the fewest
   * insertions, deletions, substitutions and swaps of two neighbouring characters that turn {@code a} into
   * {@code b}.
   */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  /**
   * Keys that are never suspect though the serde does not read them: Confluent's that Kavro knows, and the keys of
   * the Kafka clients of the running version, which Kafka passes to the serdes with the rest of their settings.
   */
  private static Set<String> otherKeys() {
    Set<String> keys = new HashSet<>(CONFLUENT_KEYS);
    keys.addAll(ConfluentKeys.KEYS.keySet());
    new ConfigDef().withClientSslSupport().names().forEach(name -> keys.add("schema.registry." + name));
    keys.addAll(ProducerConfig.configNames());
    keys.addAll(ConsumerConfig.configNames());
    keys.addAll(AdminClientConfig.configNames());
    return keys;
  }
}
