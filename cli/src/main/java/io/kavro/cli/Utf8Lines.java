package io.kavro.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a stream of UTF-8 text, as {@code produce} reads standard input: ended by {@code \n},
 * {@code \r\n} or {@code \r}, or by the end of the stream. A line that is not valid UTF-8, or longer than the
 * limit, is a {@link BadLineException} with its number; it is never decoded with replacement characters, and
 * at most the limit (and one read's chunk) is held in memory. Not thread-safe.
 */
final class Utf8Lines {
  /** The default limit of a line, 8 MiB: JSON lines much longer than the broker's 1 MiB record default. */
  static final int DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

  private final InputStream in;
  private final int maxLineBytes;
  private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
  private final byte[] chunk = new byte[64 * 1024];
  private int position;
  private int limit;
  private byte[] line = new byte[1024];
  private int number;
  private boolean afterCarriageReturn;

  /** A line that cannot be read: its number and why, as one line of text. */
  static final class BadLineException extends Exception {
    private static final long serialVersionUID = 1L;

    BadLineException(String message) {
      super(message, null, false, false);
    }
  }

  /** @param maxLineBytes the longest line, in bytes without its end, that is read */
  Utf8Lines(InputStream in, int maxLineBytes) {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be at least 1, was " + maxLineBytes);
    }
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /** The number of the line {@link #next} returned last (or refused), from 1. */
  int number() {
    return number;
  }

  /**
   * The next line without its end, or {@code null} at the end of the stream.
   *
   * @throws BadLineException "line N is not valid UTF-8 (at byte B)", or "line N is longer than L bytes"
   * @throws IOException when the stream cannot be read
   */
  String next() throws IOException, BadLineException {
    int length = 0;
    boolean any = false;
    while (true) {
      if (position == limit) {
        limit = in.read(chunk, 0, chunk.length);
        position = 0;
        if (limit <= 0) {
          limit = 0;
          if (!any) {
            return null;
          }
          number++;
          return decode(length);
        }
      }
      byte b = chunk[position++];
      if (afterCarriageReturn) {
        afterCarriageReturn = false;
        if (b == '\n') {
          continue; // the \n of \r\n
        }
      }
      any = true;
      if (b == '\n' || b == '\r') {
        afterCarriageReturn = b == '\r';
        number++;
        return decode(length);
      }
      if (length == maxLineBytes) {
        number++;
        throw new BadLineException("line " + number + " is longer than " + maxLineBytes + " bytes (the limit of "
            + "--max-line-bytes)");
      }
      if (length == line.length) {
        line = Arrays.copyOf(line, (int) Math.min(maxLineBytes, 2L * line.length));
      }
      line[length++] = b;
    }
  }

  private String decode(int length) throws BadLineException {
    ByteBuffer bytes = ByteBuffer.wrap(line, 0, length);
    CharBuffer chars = CharBuffer.allocate(length);
    decoder.reset();
    CoderResult result = decoder.decode(bytes, chars, true);
    if (!result.isError()) {
      result = decoder.flush(chars);
    }
    if (result.isError()) {
      throw new BadLineException("line " + number + " is not valid UTF-8 (at byte " + (bytes.position() + 1) + ")");
    }
    return chars.flip().toString();
  }
}
