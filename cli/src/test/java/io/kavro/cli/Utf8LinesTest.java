package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lines produce reads from standard input: their ends, strict UTF-8, and the length limit. */
class Utf8LinesTest {
  private static List<String> all(byte[] bytes, int max) throws Exception {
    Utf8Lines lines = new Utf8Lines(new ByteArrayInputStream(bytes), max);
    List<String> read = new ArrayList<>();
    for (String line = lines.next(); line != null; line = lines.next()) {
      read.add(lines.number() + ":" + line);
    }
    return read;
  }

  private static byte[] bytes(int... values) {
    byte[] bytes = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = (byte) values[i];
    }
    return bytes;
  }

  @Test
  void next_endsOfLine_lfCrlfCr_andALastLineWithoutEnd() throws Exception {
    assertThat(all("a\nb\r\nc\rd\n\ne".getBytes(java.nio.charset.StandardCharsets.UTF_8), 100))
        .containsExactly("1:a", "2:b", "3:c", "4:d", "5:", "6:e");
    assertThat(all(new byte[0], 100)).isEmpty();
    assertThat(all("x\n".getBytes(java.nio.charset.StandardCharsets.UTF_8), 100)).containsExactly("1:x");
  }

  @Test
  void next_multibyteUtf8_decoded() throws Exception {
    assertThat(all(bytes('c', 'a', 'f', 0xc3, 0xa9, '\n', 0xf0, 0x9f, 0x98, 0x80), 100))
        .containsExactly("1:café", "2:\uD83D\uDE00");
  }

  @Test
  void next_latin1_refusedWithItsLineAndByte() throws Exception {
    Utf8Lines lines = new Utf8Lines(new ByteArrayInputStream(bytes('o', 'k', '\n', 'c', 'a', 'f', 0xe9, '\n')), 100);
    assertThat(lines.next()).isEqualTo("ok");

    assertThatThrownBy(lines::next).isInstanceOf(Utf8Lines.BadLineException.class)
        .hasMessage("line 2 is not valid UTF-8 (at byte 4)");
  }

  @Test
  void next_truncatedSequenceAtTheEnd_refused() {
    Utf8Lines lines = new Utf8Lines(new ByteArrayInputStream(bytes('c', 'a', 'f', 0xc3)), 100);

    assertThatThrownBy(lines::next).hasMessage("line 1 is not valid UTF-8 (at byte 4)");
  }

  @Test
  void next_limit_exactlyItIsRead_oneMoreIsRefused() throws Exception {
    assertThat(all("12345\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 5)).containsExactly("1:12345");
    Utf8Lines lines = new Utf8Lines(new ByteArrayInputStream("1\n123456\n".getBytes(
        java.nio.charset.StandardCharsets.US_ASCII)), 5);
    assertThat(lines.next()).isEqualTo("1");

    assertThatThrownBy(lines::next).hasMessage("line 2 is longer than 5 bytes (the limit of --max-line-bytes)");
  }

  /** A line over several reads of the stream (its chunks are 64 KiB). */
  @Test
  void next_lineLongerThanAChunk_whole() throws Exception {
    String longLine = "é".repeat(100_000);
    assertThat(all((longLine + "\nz").getBytes(java.nio.charset.StandardCharsets.UTF_8), 200_000))
        .containsExactly("1:" + longLine, "2:z");
  }
}
