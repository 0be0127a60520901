package io.github.kubeevents;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.sink.EventsApi;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a sink names its Events ({@link EventNaming}): client-go's names unless the mode was asked for; a fallback
 * for good when the sink cannot read; per API and namespace while RBAC refuses {@code get}, decided on the writer
 * ({@link EventNaming#confirm}) and only read on the distribution thread ({@link EventNaming#deterministic}), and
 * resumed once the answer expired and RBAC allows it. One WARN and one count per fallback.
 */
class EventNamingTests {

	private static final String REASON = "RBAC does not allow the verb 'get' on events (core/v1) in namespace 'shop',"
			+ " which the mode needs to continue an Event another process wrote";

	private final TickingClock clock = TickingClock.fixed(Instant.parse("2026-12-07T12:00:00Z"));

	/** Whether RBAC allows get, per namespace (create and patch are always allowed). */
	private final Map<String, Boolean> getAllowed = new ConcurrentHashMap<>();

	private final EventsAccess access = new EventsAccess((group, verb, namespace) -> !"get".equals(verb)
			|| this.getAllowed.getOrDefault(namespace, true), EventsAccess.READ_WRITE_VERBS, this.clock);

	@Test
	void clientGoNamesAreNeverDeterministicAndNeverFallBack() {
		EventNaming naming = EventNaming.clientGo();
		assertThat(naming.requested()).isFalse();
		assertThat(naming.deterministic(EventsApi.CORE_V1, "shop")).isFalse();
		assertThat(naming.fallBack("the sink cannot read Events")).as("nothing to fall back from").isFalse();
		assertThat(naming.fallingBack()).isFalse();
		assertThat(naming.fallbacks()).isZero();
		assertThat(EventNaming.of(false, this.access).deterministic(EventsApi.CORE_V1, "shop")).isFalse();
	}

	@Test
	void aSinkThatCannotReadFallsBackForGoodOnceWithOneWarning() {
		EventNaming naming = EventNaming.of(true);
		assertThat(naming.requested()).isTrue();
		assertThat(naming.deterministic(EventsApi.CORE_V1, "shop")).isTrue();
		assertThat(naming.confirm(EventsApi.CORE_V1, "shop")).isTrue();
		try (LogCapture log = LogCapture.of(RecorderLog.CATEGORY, Level.WARN)) {
			naming.readRefused(EventsApi.CORE_V1, "shop");
			assertThat(naming.fallBack("again")).as("the first fallback stays").isFalse();
			assertThat(log.warnings()).containsExactly("Deterministic event names are off, using client-go's names"
					+ " (a restart or another replica starts a new Event): " + REASON);
		}
		assertThat(naming.deterministic(EventsApi.CORE_V1, "other")).isFalse();
		assertThat(naming.confirm(EventsApi.CORE_V1, "other")).isFalse();
		assertThat(naming.fallingBack()).isTrue();
		assertThat(naming.fallbacks()).isEqualTo(1);
		assertThat(naming.fallbackReason()).isEqualTo(REASON);
	}

	@Test
	void aNamespaceWhereRbacRefusesGetFallsBackOnTheWriterAndTheDistributionThreadReadsIt() {
		this.getAllowed.put("shop", false);
		EventNaming naming = EventNaming.of(true, this.access);
		assertThat(naming.deterministic(EventsApi.CORE_V1, "shop")).as("not known yet: deterministic").isTrue();
		assertThat(naming.deterministic(EventsApi.CORE_V1, null)).as("a cluster-scoped Event").isTrue();
		try (LogCapture log = LogCapture.of(RecorderLog.CATEGORY, Level.WARN)) {
			assertThat(naming.confirm(EventsApi.CORE_V1, "shop")).isFalse();
			assertThat(naming.confirm(EventsApi.CORE_V1, "shop")).as("one WARN per fallback").isFalse();
			assertThat(log.warnings()).singleElement().asString().endsWith(REASON
					+ "; names are deterministic again there once RBAC allows it");
		}
		assertThat(naming.deterministic(EventsApi.CORE_V1, "shop")).isFalse();
		assertThat(naming.deterministic(EventsApi.EVENTS_V1, "shop")).as("the other API is not known yet").isTrue();
		assertThat(naming.confirm(EventsApi.CORE_V1, "web")).isTrue();
		assertThat(naming.deterministic(EventsApi.CORE_V1, "web")).isTrue();
		assertThat(naming.fallingBack()).isTrue();
		assertThat(naming.fallbacks()).isEqualTo(1);
		assertThat(naming.confirm(EventsApi.EVENTS_V1, "shop")).as("each API has its own fallback").isFalse();
		assertThat(naming.fallbacks()).isEqualTo(2);
	}

	@Test
	void getAllowedOnceTheAnswerExpiredBringsDeterministicNamesBackWithOneInfoLine() {
		this.getAllowed.put("shop", false);
		EventNaming naming = EventNaming.of(true, this.access);
		assertThat(naming.confirm(EventsApi.CORE_V1, "shop")).isFalse();
		this.getAllowed.put("shop", true);
		assertThat(naming.confirm(EventsApi.CORE_V1, "shop")).as("the answer is remembered").isFalse();
		this.clock.advance(EventsAccess.ANSWER_TTL.plus(Duration.ofSeconds(1)));
		try (LogCapture log = LogCapture.of(RecorderLog.CATEGORY, Level.INFO)) {
			assertThat(naming.confirm(EventsApi.CORE_V1, "shop")).isTrue();
			assertThat(naming.confirm(EventsApi.CORE_V1, "shop")).isTrue();
			assertThat(log.messages(Level.INFO)).containsExactly(
					"Deterministic event names are on again for events (core/v1) in namespace 'shop': RBAC allows the"
							+ " verb 'get'");
		}
		assertThat(naming.deterministic(EventsApi.CORE_V1, "shop")).isTrue();
		assertThat(naming.fallingBack()).isFalse();
		assertThat(naming.fallbacks()).as("the fallbacks so far").isEqualTo(1);
	}

	@Test
	void aReadRefusedWith403IsTheAccessAnswerUntilItExpires() {
		EventNaming naming = EventNaming.of(true, this.access);
		assertThat(naming.confirm(EventsApi.CORE_V1, "shop")).isTrue();
		naming.readRefused(EventsApi.CORE_V1, "shop");
		assertThat(naming.deterministic(EventsApi.CORE_V1, "shop")).isFalse();
		assertThat(naming.confirm(EventsApi.CORE_V1, "shop")).isFalse();
		assertThat(naming.fallbackReason()).isEqualTo(REASON
				+ "; names are deterministic again there once RBAC allows it");
		this.clock.advance(EventsAccess.ANSWER_TTL.plus(Duration.ofSeconds(1)));
		assertThat(naming.confirm(EventsApi.CORE_V1, "shop")).as("asked again: RBAC allows get").isTrue();
		assertThat(naming.fallingBack()).isFalse();
	}

}
