package com.example;

/** A class whose static initializer fails and counts its runs: naming it in a schema must not run it. */
public final class Exploding {
  /** How many times the initializer ran; read through {@link Runs}, which does not initialize this class. */
  static {
    Runs.count++;
    if (Runs.count > 0) {
      throw new IllegalStateException("static initializer of com.example.Exploding ran");
    }
  }

  private Exploding() {}

  /** The counter, apart from the class it counts. */
  public static final class Runs {
    public static int count;

    private Runs() {}
  }
}
