package io.github.dra4j.cdi.codec;

import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.scanner.Scanner;
import org.snakeyaml.engine.v2.tokens.Token;

/**
 * The reference YAML decoder's rules for tabs between tokens, where they differ from this
 * parser's. Outside flow collections that decoder refuses a tab before the first token of a line
 * (also on a line that is blank or holds only a comment), which this parser lets pass; and it
 * skips tabs after the {@code :} of a key written on the same line ({@code key:<TAB>value}),
 * which this parser refuses. Wraps the scanner to see every token in order; one instance scans
 * one text, not thread-safe.
 */
final class TabRules implements Scanner {
  private final Scanner delegate;
  private final int[] text;
  private Token lastSeen;
  private int lastEnd;
  private int flowLevel;

  TabRules(Scanner delegate, int[] text) {
    this.delegate = delegate;
    this.text = text;
  }

  /**
   * Where whitespace this parser refused between tokens is whitespace to the reference decoder,
   * which skips tabs mid-line after everything but the indicators {@code -}, {@code ?} and a
   * {@code :} that starts its line (it refuses them only where indentation counts), and skips
   * tabs before spaces where this parser stops.
   *
   * @param e the parser's error
   * @param text the text as code points
   * @return the start of the whitespace run to turn into spaces, or -1 if the error stands
   */
  static int skippableWhitespace(MarkedYamlEngineException e, int[] text) {
    int at = e.getProblemMark().map(Mark::getIndex).orElse(-1);
    if (at < 0 || at >= text.length || (text[at] != '\t' && text[at] != ' ')
        || !e.getProblem().contains("cannot start any token")) {
      return -1;
    }
    int start = at;
    while (start > 0 && (text[start - 1] == ' ' || text[start - 1] == '\t')) {
      start--;
    }
    if (text[at] == ' ') {
      return start; // this parser took the tabs before it as whitespace already
    }
    int before = start - 1;
    if (before < 0 || text[before] == '\n' || text[before] == '\r') {
      return -1; // a tab where indentation counts
    }
    int c = text[before];
    boolean standsAlone = before == 0 || text[before - 1] == ' ' || text[before - 1] == '\t'
        || text[before - 1] == '\n' || text[before - 1] == '\r';
    if (((c == '-' || c == '?' || (c == ':' && firstOnLine(text, before))) && standsAlone)
        || c == '|' || c == '>') {
      return -1; // after these indicators a tab is indentation
    }
    return start;
  }

  private static boolean firstOnLine(int[] text, int index) {
    for (int i = index - 1; i >= 0 && text[i] != '\n' && text[i] != '\r'; i--) {
      if (text[i] != ' ' && text[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean checkToken(Token.ID... choices) {
    observeNext();
    return delegate.checkToken(choices);
  }

  @Override
  public Token peekToken() {
    observeNext();
    return delegate.peekToken();
  }

  @Override
  public Token next() {
    Token token = delegate.next();
    observe(token);
    return token;
  }

  @Override
  public boolean hasNext() {
    return delegate.hasNext();
  }

  @Override
  public void resetDocumentIndex() {
    delegate.resetDocumentIndex();
  }

  private void observeNext() {
    if (delegate.hasNext()) {
      observe(delegate.peekToken());
    }
  }

  private void observe(Token token) {
    if (token == lastSeen) {
      return;
    }
    int start = token.getStartMark().map(Mark::getIndex).orElse(lastEnd);
    if (flowLevel == 0) {
      checkGap(lastEnd, Math.min(start, text.length));
    }
    Token.ID id = token.getTokenId();
    if (id == Token.ID.FlowMappingStart || id == Token.ID.FlowSequenceStart) {
      flowLevel++;
    } else if ((id == Token.ID.FlowMappingEnd || id == Token.ID.FlowSequenceEnd) && flowLevel > 0) {
      flowLevel--;
    }
    lastSeen = token;
    lastEnd = Math.max(lastEnd, token.getEndMark().map(Mark::getIndex).orElse(start));
  }

  /** Refuses a tab before the first non-space character of a line that starts in the gap. */
  private void checkGap(int from, int to) {
    boolean lineStart = from == 0;
    for (int i = from; i < to; i++) {
      int c = text[i];
      if (c == '\n' || c == '\r') {
        lineStart = true;
      } else if (lineStart && c == '\t') {
        throw new DecodeException("invalid YAML: found a tab character that violates"
            + " indentation at line " + line(i));
      } else if (c != ' ') {
        lineStart = false;
      }
    }
  }

  private int line(int index) {
    int line = 1;
    for (int i = 0; i < index; i++) {
      if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.length || text[i + 1] != '\n'))) {
        line++;
      }
    }
    return line;
  }
}
