package io.github.kubeevents;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Formattable;
import java.util.Formatter;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * The caller's path: validation of a call, and the {@code %s} fast path of formatting, which must give exactly
 * what {@code String.format(Locale.ROOT, ...)} gives, or fail where it fails.
 */
class EventFactoryTests {

	private static final InvolvedObject POD = InvolvedObject.of("Pod", "v1", "ns", "web-0");

	private static final String[] PIECES = { "", "a", "Error ", " on ", "é", "100", "%s", "%s", "%s", "%%", "%%s",
			"%n", "%d", "%5s", "%-4s", "%S", "%b", "%x", "%1$s", "%2$s", "%.2s", "%", "%q", "\"", "\\", "{}", "$" };

	/** A {@link Formattable} argument: {@code %s} must call formatTo, not toString. */
	private static final class Shouting implements Formattable {

		@Override
		public void formatTo(Formatter formatter, int flags, int width, int precision) {
			formatter.format("LOUD(%d,%d)", width, precision);
		}

		@Override
		public String toString() {
			return "quiet";
		}

	}

	private static Object randomArg(Random random) {
		return switch (random.nextInt(9)) {
			case 0 -> null;
			case 1 -> random.nextInt(1000) - 500;
			case 2 -> "text-" + random.nextInt(100);
			case 3 -> new Shouting();
			case 4 -> 3.5;
			case 5 -> true;
			case 6 -> List.of("x", 1);
			case 7 -> 'c';
			default -> "";
		};
	}

	/** The expected outcome: the formatted text, or "!" plus the failure's class. */
	private static String expected(String pattern, Object[] args) {
		try {
			return String.format(Locale.ROOT, pattern, args);
		}
		catch (IllegalFormatException ex) {
			return "!";
		}
	}

	private static String actual(String pattern, Object[] args) {
		try {
			return EventFactory.format(pattern, args);
		}
		catch (IllegalArgumentException ex) {
			assertThat(ex.getMessage()).startsWith("bad message format '" + pattern + "'");
			assertThat(ex.getCause()).isInstanceOf(IllegalFormatException.class);
			return "!";
		}
	}

	@Test
	void fastPathGivesExactlyWhatStringFormatGives() {
		Random random = new Random(1130);
		int formatted = 0;
		int failed = 0;
		for (int i = 0; i < 2000; i++) {
			StringBuilder pattern = new StringBuilder();
			int pieces = random.nextInt(6);
			for (int p = 0; p < pieces; p++) {
				pattern.append(PIECES[random.nextInt(PIECES.length)]);
			}
			Object[] args = new Object[random.nextInt(4)];
			for (int a = 0; a < args.length; a++) {
				args[a] = randomArg(random);
			}
			String expected = expected(pattern.toString(), args);
			assertThat(actual(pattern.toString(), args)).as("format(\"%s\", %s)", pattern, Arrays.toString(args))
				.isEqualTo(expected);
			if (expected.equals("!")) {
				failed++;
			}
			else {
				formatted++;
			}
		}
		assertThat(formatted).as("formatted").isGreaterThan(500);
		assertThat(failed).as("failed").isGreaterThan(300);
	}

	@Test
	void simplePatternsOfOnlyPercentSAndPercentPercent() {
		Random random = new Random(7);
		for (int i = 0; i < 500; i++) {
			StringBuilder pattern = new StringBuilder();
			List<Object> args = new ArrayList<>();
			int pieces = 1 + random.nextInt(8);
			for (int p = 0; p < pieces; p++) {
				switch (random.nextInt(3)) {
					case 0 -> pattern.append("word").append(p);
					case 1 -> pattern.append("%%");
					default -> {
						pattern.append("%s");
						args.add(randomArg(random));
					}
				}
			}
			Object[] array = args.toArray();
			assertThat(EventFactory.format(pattern.toString(), array))
				.isEqualTo(String.format(Locale.ROOT, pattern.toString(), array));
		}
	}

	@Test
	void examples() {
		assertThat(EventFactory.format("Error creating: %s", new Object[] { "boom" })).isEqualTo("Error creating: boom");
		assertThat(EventFactory.format("%s%%", new Object[] { 100 })).isEqualTo("100%");
		assertThat(EventFactory.format("%%s", new Object[0])).isEqualTo("%s");
		assertThat(EventFactory.format("%s", new Object[] { null })).isEqualTo("null");
		assertThat(EventFactory.format("%s", new Object[] { new Shouting() })).isEqualTo("LOUD(-1,-1)");
		assertThat(EventFactory.format("%5s|%-3s|", new Object[] { "ab", "c" })).isEqualTo("   ab|c  |");
		assertThat(EventFactory.format("%d items", new Object[] { 3 })).isEqualTo("3 items");
		assertThat(EventFactory.format("a%nb", new Object[0])).isEqualTo("a" + System.lineSeparator() + "b");
		assertThat(EventFactory.format("%,d", new Object[] { 1234567 })).as("Locale.ROOT").isEqualTo("1,234,567");
		assertThat(EventFactory.format("%.1f", new Object[] { 1.25 })).as("Locale.ROOT").isEqualTo("1.3");
	}

	@Test
	void extraArgumentsAreIgnored() {
		assertThat(EventFactory.format("%s", new Object[] { "a", "b", "c" })).isEqualTo("a");
		assertThat(EventFactory.format("no verbs", new Object[] { "a" })).isEqualTo("no verbs");
	}

	@Test
	void missingArgumentsAndBadPatternsAreInvalidInput() {
		assertThatIllegalArgumentException().isThrownBy(() -> EventFactory.format("%s and %s", new Object[] { "a" }))
			.withMessageStartingWith("bad message format '%s and %s': java.util.MissingFormatArgumentException");
		assertThatIllegalArgumentException().isThrownBy(() -> EventFactory.format("%s", new Object[0]))
			.withMessageStartingWith("bad message format '%s'");
		assertThatIllegalArgumentException().isThrownBy(() -> EventFactory.format("100%", new Object[0]))
			.withMessageStartingWith("bad message format '100%'");
		assertThatIllegalArgumentException().isThrownBy(() -> EventFactory.format("%d", new Object[] { "x" }))
			.withMessageStartingWith("bad message format '%d'");
	}

	@Test
	void withoutArgumentsTheMessageIsVerbatimAndNullIsEmpty() {
		assertThat(EventFactory.format("100% %s %d", null)).isEqualTo("100% %s %d");
		assertThat(EventFactory.format(null, null)).isEmpty();
		assertThat(EventFactory.format(null, new Object[] { "x" })).isEmpty();
	}

	@Test
	void buildValidatesAndKeepsEveryField() {
		InvolvedObject node = InvolvedObject.of("Node", "v1", null, "n");
		EventSpec<InvolvedObject> spec = new EventSpec<>(POD, Adapters.IDENTITY, node, Map.of("k", "v"),
				EventType.WARNING, "Failed", "Deleting", "%s!", new Object[] { "boom" });
		Instant time = Instant.parse("2026-11-30T12:00:00Z");
		RecordedEvent event = EventFactory.build(spec, TestEvents.SOURCE, time, 100);
		assertThat(event).isEqualTo(new RecordedEvent(POD, node, EventType.WARNING, "Failed", "Deleting", "boom!",
				Map.of("k", "v"), TestEvents.SOURCE, time));
	}

	@Test
	void buildNamesEachProblem() {
		Instant time = Instant.parse("2026-11-30T12:00:00Z");
		assertThat(problem(new EventSpec<>(POD, Adapters.IDENTITY, null, null, null, "R", null, "m", null), time))
			.isEqualTo("event type is null (must be Normal or Warning)");
		assertThat(problem(new EventSpec<>(POD, Adapters.IDENTITY, null, null, EventType.NORMAL, null, null, "m", null),
				time)).isEqualTo("reason is null");
		assertThat(problem(new EventSpec<>(POD, Adapters.IDENTITY, null, null, EventType.NORMAL, "", null, "m", null),
				time)).isEqualTo("reason is empty");
		assertThat(problem(new EventSpec<>(POD, null, null, null, EventType.NORMAL, "R", null, "m", null), time))
			.isEqualTo("no InvolvedObjectAdapter given");
		assertThat(problem(new EventSpec<>(null, Adapters.IDENTITY, null, null, EventType.NORMAL, "R", null, "m", null),
				time)).isEqualTo("involved object is null");
		assertThat(problem(new EventSpec<>(POD, Adapters.IDENTITY, null, null, EventType.NORMAL, "R", null, "12345",
				null), time, 4)).isEqualTo("message is 5 UTF-8 bytes, more than the limit of 4");
	}

	private static String problem(EventSpec<?> spec, Instant time) {
		return problem(spec, time, Integer.MAX_VALUE);
	}

	private static String problem(EventSpec<?> spec, Instant time, int maxBytes) {
		Throwable thrown = catchThrowable(() -> EventFactory.build(spec, TestEvents.SOURCE, time, maxBytes));
		assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
		return thrown.getMessage();
	}

}
