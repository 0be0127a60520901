package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * client-go's {@code SimpleIntervalClock}: every read advances the time by a fixed interval first. Also usable
 * as a manual clock ({@link #advance(Duration)}) with a zero interval. Thread-safe.
 */
public final class TickingClock extends Clock {

	private final Duration interval;

	private Instant now;

	public TickingClock(Instant start, Duration interval) {
		this.now = start;
		this.interval = interval;
	}

	public static TickingClock fixed(Instant start) {
		return new TickingClock(start, Duration.ZERO);
	}

	@Override
	public synchronized Instant instant() {
		this.now = this.now.plus(this.interval);
		return this.now;
	}

	public synchronized void advance(Duration duration) {
		this.now = this.now.plus(duration);
	}

	public synchronized Instant peek() {
		return this.now;
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException();
	}

}
