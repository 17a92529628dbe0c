package io.github.dra4j.cdi.codec;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.MappingStartEvent;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.events.SequenceStartEvent;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.ScannerImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;
import org.snakeyaml.engine.v2.tokens.Token;

/**
 * The first YAML document of a spec file as a node tree, read the way the reference library's
 * YAML decoder (a libyaml port) reads it. JSON is YAML to it, so a {@code .json} file goes the
 * same way.
 *
 * <p>Like that decoder: the text is UTF-8, or UTF-16 after a byte order mark; only the first
 * document counts and whatever follows its root node is ignored once the next token scans (a
 * second document, a trailing comma or bracket, text on a later line); an anchor is known from
 * where it is set, so an alias may point into the collection it is in; double-quoted scalars
 * know only the YAML 1.1 escapes ({@code \/} and escaped UTF-16 surrogates are errors); inside
 * {@code [ ]} and {@code { }} a {@code ?} is always a key indicator, so an unquoted scalar may
 * not contain one. Tabs follow {@link TabRules}.
 */
final class YamlDocument {
  /** Deeper nesting is refused instead of exhausting the stack; spec files nest about ten. */
  private static final int MAX_DEPTH = 1_000;

  private final ParserImpl parser;
  private final TabRules scanner;
  private final int[] codePoints;
  private final Map<String, YamlNode> anchors = new HashMap<>();

  private YamlDocument(int[] codePoints) {
    LoadSettings settings = LoadSettings.builder().setCodePointLimit(Integer.MAX_VALUE).build();
    String text = new String(codePoints, 0, codePoints.length);
    this.scanner = new TabRules(new ScannerImpl(settings, new StreamReader(settings, text)),
        codePoints);
    this.parser = new ParserImpl(settings, scanner);
    this.codePoints = codePoints;
  }

  /**
   * Reads the first document.
   *
   * @param content the file's bytes
   * @return the root node, or null if there is no document or it is empty
   * @throws DecodeException if the text is not valid YAML up to the token after the root node
   */
  static YamlNode read(byte[] content) {
    int[] codePoints = decode(content).codePoints().toArray();
    while (true) {
      try {
        return new YamlDocument(codePoints).firstDocument();
      } catch (MarkedYamlEngineException e) {
        int start = TabRules.skippableWhitespace(e, codePoints);
        if (start < 0) {
          throw invalid(e);
        }
        // Whitespace to the reference decoder: read again with spaces in its place.
        codePoints = codePoints.clone();
        for (int i = start; codePoints[i] == '\t' || codePoints[i] == ' '; i++) {
          codePoints[i] = ' ';
        }
      } catch (KeyIndicator e) {
        // "?x" inside [ ] or { } is the key x to the reference decoder: read "? x" instead.
        int[] spaced = new int[codePoints.length + 1];
        System.arraycopy(codePoints, 0, spaced, 0, e.at + 1);
        spaced[e.at + 1] = ' ';
        System.arraycopy(codePoints, e.at + 1, spaced, e.at + 2, codePoints.length - e.at - 1);
        codePoints = spaced;
      } catch (YamlEngineException e) {
        throw invalid(e);
      }
    }
  }

  /** A {@code ?} that starts an unquoted scalar in a flow collection, at a code point index. */
  private static final class KeyIndicator extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int at;

    KeyIndicator(int at) {
      super(null, null, false, false);
      this.at = at;
    }
  }

  private static DecodeException invalid(YamlEngineException e) {
    return new DecodeException("invalid YAML: " + e.getMessage().replace('\n', ' ').trim());
  }

  private static String decode(byte[] content) {
    Charset charset = StandardCharsets.UTF_8;
    int skip = 0;
    if (startsWith(content, 0xEF, 0xBB, 0xBF)) {
      skip = 3;
    } else if (startsWith(content, 0xFF, 0xFE)) {
      charset = StandardCharsets.UTF_16LE;
      skip = 2;
    } else if (startsWith(content, 0xFE, 0xFF)) {
      charset = StandardCharsets.UTF_16BE;
      skip = 2;
    }
    String text;
    try {
      text = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(content, skip, content.length - skip)).toString();
    } catch (CharacterCodingException e) {
      throw new DecodeException("invalid YAML: the file is not valid " + charset.name());
    }
    text.codePoints().filter(c -> !isAllowed(c)).findFirst().ifPresent(c -> {
      throw new DecodeException(String.format(
          "invalid YAML: control characters are not allowed (U+%04X)", c));
    });
    return text;
  }

  /** The characters YAML 1.1 allows in a stream; DEL and C1 controls but NEL are not. */
  private static boolean isAllowed(int c) {
    return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85
        || (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000;
  }

  private static boolean startsWith(byte[] content, int... prefix) {
    if (content.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if ((content[i] & 0xFF) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private YamlNode firstDocument() {
    parser.next(); // stream start
    Event event = parser.next();
    if (event.getEventId() == Event.ID.StreamEnd) {
      return null;
    }
    YamlNode root = node(parser.next(), 0, false);
    // The reference decoder stops after the root node once the next token scanned; a directive
    // there ends the document for it, while this parser would call it an error.
    if (!scanner.checkToken(Token.ID.Directive)) {
      parser.next(); // document end; scans the next token
    }
    return root;
  }

  private YamlNode node(Event event, int depth, boolean inFlow) {
    if (depth > MAX_DEPTH) {
      throw new DecodeException("invalid YAML: nested deeper than " + MAX_DEPTH + " levels");
    }
    int line = event.getStartMark().map(m -> m.getLine() + 1).orElse(0);
    if (event instanceof AliasEvent alias) {
      String name = alias.getAlias().getValue();
      YamlNode target = anchors.get(name);
      if (target == null) {
        throw new DecodeException("invalid YAML: unknown anchor '" + name + "' referenced");
      }
      return new YamlNode.Alias(name, target, line);
    }
    YamlNode result;
    if (event instanceof ScalarEvent scalar) {
      if (scalar.getScalarStyle() == ScalarStyle.DOUBLE_QUOTED) {
        checkEscapes(scalar);
      }
      if (inFlow && scalar.getScalarStyle() == ScalarStyle.PLAIN
          && scalar.getValue().startsWith("?")) {
        throw new KeyIndicator(scalar.getStartMark().orElseThrow().getIndex());
      }
      if (inFlow && scalar.getScalarStyle() == ScalarStyle.PLAIN
          && scalar.getValue().indexOf('?') >= 0) {
        throw new DecodeException("invalid YAML: '?' in the unquoted \"" + scalar.getValue()
            + "\" at line " + line + " (inside [ ] or { } it is a key indicator to the reference"
            + " decoder; quote the value)");
      }
      result = new YamlNode.Scalar(scalar.getValue(), scalar.getScalarStyle() == ScalarStyle.PLAIN,
          scalar.getTag().orElse(null), line);
      anchor(scalar, result);
      return result;
    }
    List<YamlNode> children = new ArrayList<>();
    if (event instanceof SequenceStartEvent) {
      result = new YamlNode.Sequence(children, line);
    } else if (event instanceof MappingStartEvent) {
      result = new YamlNode.Mapping(children, line);
    } else {
      throw new DecodeException("invalid YAML: unexpected " + event.getEventId() + " at line "
          + line);
    }
    // Known before the children: an alias inside may point at this collection.
    anchor((CollectionStartEvent) event, result);
    boolean flow = inFlow || ((CollectionStartEvent) event).isFlow();
    for (Event next = parser.next(); !isEnd(next); next = parser.next()) {
      children.add(node(next, depth + 1, flow));
    }
    return result;
  }

  private static boolean isEnd(Event event) {
    return event.getEventId() == Event.ID.SequenceEnd || event.getEventId() == Event.ID.MappingEnd;
  }

  private void anchor(NodeEvent event, YamlNode node) {
    event.getAnchor().ifPresent(a -> anchors.put(a.getValue(), node));
  }

  /** Refuses the escapes YAML 1.1 lacks but this YAML 1.2 parser accepts. */
  private void checkEscapes(ScalarEvent scalar) {
    int start = scalar.getStartMark().orElseThrow().getIndex();
    int end = Math.min(scalar.getEndMark().orElseThrow().getIndex(), codePoints.length);
    for (int i = start; i < end - 1; i++) {
      if (codePoints[i] != '\\') {
        continue;
      }
      int escape = codePoints[++i];
      if (escape == '/') {
        throw new DecodeException("invalid YAML: found unknown escape character '\\/' at line "
            + (scalar.getStartMark().get().getLine() + 1));
      }
      int digits = escape == 'u' ? 4 : escape == 'U' ? 8 : 0;
      if (digits > 0 && i + digits < end) {
        int value = Integer.parseUnsignedInt(new String(codePoints, i + 1, digits), 16);
        if (value >= 0xD800 && value <= 0xDFFF) {
          throw new DecodeException("invalid YAML: found invalid Unicode character escape code"
              + " \\" + (char) escape + new String(codePoints, i + 1, digits) + " at line "
              + (scalar.getStartMark().get().getLine() + 1));
        }
      }
    }
  }
}
