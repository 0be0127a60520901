package io.github.kubeevents;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A test clock in UTC. With a non-zero interval it is client-go's {@code SimpleIntervalClock}: every read
 * advances the time by the interval first, so the first read returns {@code start + interval}. With a zero
 * interval ({@link #fixed(Instant)}) it is a manual clock that only moves with {@link #advance(Duration)}.
 *
 * <p>Shared with the other modules' tests through core's test-jar. Thread-safe.
 */
public final class TickingClock extends Clock {

	private final Duration interval;

	private Instant now;

	/**
	 * A clock that advances by {@code interval} on every read.
	 * @param start the time before the first read
	 * @param interval how far each read advances the clock, may be zero
	 */
	public TickingClock(Instant start, Duration interval) {
		this.now = start;
		this.interval = interval;
	}

	/**
	 * A clock standing at {@code start} until {@link #advance(Duration) advanced}.
	 * @param start the time every read returns until advanced
	 * @return the clock
	 */
	public static TickingClock fixed(Instant start) {
		return new TickingClock(start, Duration.ZERO);
	}

	/**
	 * Advances the clock by the interval, then reads it.
	 * @return the new time
	 */
	@Override
	public synchronized Instant instant() {
		this.now = this.now.plus(this.interval);
		return this.now;
	}

	/**
	 * Moves the clock forward (or back, with a negative duration).
	 * @param duration how far
	 */
	public synchronized void advance(Duration duration) {
		this.now = this.now.plus(duration);
	}

	/**
	 * The current time, without advancing the clock.
	 * @return the time the last read returned, plus any {@link #advance(Duration)} since
	 */
	public synchronized Instant peek() {
		return this.now;
	}

	/**
	 * Always UTC.
	 * @return {@link ZoneOffset#UTC}
	 */
	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	/**
	 * Not supported: the clock is always UTC.
	 * @param zone ignored
	 * @return never
	 * @throws UnsupportedOperationException always
	 */
	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException();
	}

}
