package com.example;

import java.net.URI;
import java.util.Map;

/** A user's plain class with a stringable field and a map keyed by a stringable class. */
public class Page {
  public String title;
  public URI address;
  public Map<java.math.BigInteger, String> notes;

  public Page() {}

  public Page(String title, URI address, Map<java.math.BigInteger, String> notes) {
    this.title = title;
    this.address = address;
    this.notes = notes;
  }
}
