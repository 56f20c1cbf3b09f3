package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * {@link ManySchemas}' floors under a reader read each schema's record into that schema's own objects, as Kavro and
 * raw Avro do: what {@link ManySchemasBenchmark#handWrittenDeserialize} and {@code allocationOnly} measure.
 */
class ManySchemasTest {

  @Test
  void floors_buildEachRecordOfItsOwnSchema_asKavroAndRawAvroReadIt() {
    try (ManySchemas many = ManySchemas.warm(3)) {
      for (int i = 0; i < 3; i++) {
        GenericRecord hand = (GenericRecord) many.handWrittenDeserialize(i);
        GenericRecord allocated = (GenericRecord) many.allocationOnly(i);

        assertThat(hand).isEqualTo(many.deserialize(i)).isEqualTo(many.rawDeserialize(i));
        assertThat(hand.getSchema()).isSameAs(many.record(i).getSchema());
        assertThat(hand.getSchema().getName()).isEqualTo("Order" + i);
        assertThat(allocated.getSchema()).isSameAs(many.record(i).getSchema());
        assertThat(((GenericRecord) allocated.get("address")).getSchema())
            .isSameAs(many.record(i).getSchema().getField("address").schema());
      }
    }
  }
}
