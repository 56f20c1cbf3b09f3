package io.kavro.serde;

import java.io.IOException;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;

/**
 * Reads into Java records, which Avro's reflect reader cannot build (it needs a no-arg constructor and
 * mutable fields): the datum is read generically, then converted by {@link JavaValues}, planned once per class.
 * Avro's reader where no decoder compiles (made only there: the planner builds the compiled decoder with
 * {@link #converter} alone); the compiled decoder reads straight into the records
 * ({@link JavaRecordDecoderCompiler}), and in two steps (generically with {@link #readModel}, then {@link #convert})
 * only where that one does not compile, or to find a refused payload's error. Thread-safe.
 */
final class JavaRecordReader implements DatumReader<Object> {
  private final GenericDatumReader<Object> generic;
  private final Function<Object, Object> converter;

  /**
   * Reads data written with {@code writer} as {@code reader}, into instances of the record class {@code type}.
   * {@code reader} is the one {@link DeclaredConversions#readerSchema} gives for {@code type}: logical types only
   * where the components hold their Java types.
   */
  JavaRecordReader(Schema writer, Schema reader, Class<?> type, GenericData model) {
    this(writer, reader, converter(type), model);
  }

  /** As {@link #JavaRecordReader(Schema, Schema, Class, GenericData)}, with {@code type}'s {@link #converter}. */
  JavaRecordReader(Schema writer, Schema reader, Function<Object, Object> converter, GenericData model) {
    this.generic = new GenericDatumReader<>(writer, reader, readModel(model));
    this.converter = converter;
  }

  /**
   * The converter of a datum read generically with {@link #readModel} into the Java record class {@code type},
   * planned once: what {@link #convert} applies, for a compiled decoder to apply without this reader.
   */
  static Function<Object, Object> converter(Class<?> type) {
    if (!type.isRecord()) {
      throw new IllegalArgumentException(type.getName() + " is not a Java record");
    }
    return JavaValues.converter(type);
  }

  /**
   * The model a Java record's data is read generically with: {@code model}'s conversions (the reflect model's:
   * every one, as the record's Java types mean them, applied where the reader schema keeps the logical type), and
   * strings as text.
   * Avro's fast reader turns a string named by "java-class" into that class, and cannot with the generic model:
   * read the text, and let {@link #convert} build the class.
   */
  static GenericData readModel(GenericData model) {
    GenericData textOnly = new GenericData();
    textOnly.setFastReaderEnabled(false);
    model.getConversions().forEach(textOnly::addLogicalTypeConversion);
    return textOnly;
  }

  /** The Java record of a datum read generically with {@link #readModel}. */
  Object convert(Object generic) {
    return converter.apply(generic);
  }

  @Override
  public void setSchema(Schema schema) {
    generic.setSchema(schema);
  }

  @Override
  public Object read(Object reuse, Decoder in) throws IOException {
    return convert(generic.read(null, in));
  }
}
