package io.kavro.examples;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates topics up front, so that consumers do not wait for them to appear. */
public final class Topics {
  private Topics() {}

  /** Creates each topic with one partition, unless it exists. */
  public static void create(Endpoints endpoints, String... names) {
    List<NewTopic> topics = Arrays.stream(names).map(name -> new NewTopic(name, 1, (short) 1)).toList();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", endpoints.bootstrapServers()))) {
      admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException("cannot create topics " + List.of(names) + ": " + e.getCause().getMessage(), e);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("cannot create topics " + List.of(names) + " within 30 s", e);
    }
  }
}
