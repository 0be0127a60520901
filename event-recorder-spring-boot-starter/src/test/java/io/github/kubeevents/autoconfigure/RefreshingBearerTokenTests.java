package io.github.kubeevents.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import ch.qos.logback.classic.Level;
import io.github.kubeevents.LogCapture;
import io.github.kubeevents.TickingClock;
import io.github.kubeevents.sink.EventSink;
import io.github.kubeevents.sink.EventSinkException;
import io.github.kubeevents.sink.EventsClient;
import io.github.kubeevents.sink.Sink;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests for {@link RefreshingBearerToken}: requests go through an OkHttp client whose last interceptor stands in
 * for the API server (it answers 401 unless the bearer token is one it accepts), so nothing touches the network and
 * the time of the periodic read is a {@link TickingClock}.
 */
class RefreshingBearerTokenTests {

	private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

	private final TokenServer server = new TokenServer();

	private final LogCapture log = LogCapture.of(RefreshingBearerToken.class, Level.DEBUG);

	@TempDir
	Path tmp;

	@AfterEach
	void closeLog() {
		this.log.close();
	}

	@Test
	void everyRequestCarriesTheTokenReadLast() throws IOException {
		Tokens tokens = new Tokens("t1");
		this.server.accept("t1");
		OkHttpClient client = client(token(tokens, Duration.ZERO, TickingClock.fixed(T0)));

		assertThat(get(client)).isEqualTo(200);
		assertThat(get(client)).isEqualTo(200);

		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t1");
		assertThat(tokens.reads()).isEqualTo(1);
		assertThat(this.log.lines()).isEmpty();
	}

	@Test
	void aRequestSentWithAnExistingBearerTokenGetsOursInstead() throws IOException {
		this.server.accept("t1");
		OkHttpClient client = client(token(new Tokens("t1"), Duration.ZERO, TickingClock.fixed(T0)));

		Response response = client.newCall(request().newBuilder().header("Authorization", "Bearer stale").build())
			.execute();
		response.close();

		assertThat(response.code()).isEqualTo(200);
		assertThat(this.server.seen()).containsExactly("Bearer t1");
	}

	@Test
	void a401ReadsTheTokenAgainAndSendsTheRequestOnceMoreWithTheNewOne() throws IOException {
		Tokens tokens = new Tokens("t1", "t2");
		this.server.accept("t1");
		OkHttpClient client = client(token(tokens, Duration.ZERO, TickingClock.fixed(T0)));
		assertThat(get(client)).isEqualTo(200);
		// rotated: t1 is no longer valid, the source holds t2
		this.server.accept("t2");

		assertThat(get(client)).isEqualTo(200);
		assertThat(get(client)).isEqualTo(200);

		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t1", "Bearer t2", "Bearer t2");
		assertThat(tokens.reads()).isEqualTo(2);
		assertThat(this.log.messages(Level.INFO)).containsExactly("The Kubernetes API server refused the bearer token"
				+ " (HTTP 401): read a new token from test tokens; the refused requests are sent once more with it");
		assertThat(this.log.warnings()).isEmpty();
	}

	@Test
	void a401ToTheNewTokenIsTheAnswerNoLoop() throws IOException {
		Tokens tokens = new Tokens("t1", "t2", "t3", "t4");
		this.server.accept("none of them");
		OkHttpClient client = client(token(tokens, Duration.ZERO, TickingClock.fixed(T0)));

		assertThat(get(client)).isEqualTo(401);
		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t2");
		assertThat(tokens.reads()).isEqualTo(2);

		// each 401 reads once and repeats once: never more than two requests per call
		assertThat(get(client)).isEqualTo(401);
		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t2", "Bearer t2", "Bearer t3");
		assertThat(tokens.reads()).isEqualTo(3);
	}

	@Test
	void aTokenReadAgainThatIsTheSameIsNotSentAgainAndWarnsOnce() throws IOException {
		Tokens tokens = new Tokens("t1");
		this.server.accept("none");
		OkHttpClient client = client(token(tokens, Duration.ZERO, TickingClock.fixed(T0)));

		assertThat(get(client)).isEqualTo(401);
		assertThat(get(client)).isEqualTo(401);
		assertThat(get(client)).isEqualTo(401);

		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t1", "Bearer t1");
		// one read per 401
		assertThat(tokens.reads()).isEqualTo(4);
		assertThat(this.log.warnings()).containsExactly("The Kubernetes API server refused the bearer token (HTTP"
				+ " 401) and test tokens still gives the same token; requests keep failing until it changes");
		assertThat(this.log.messages(Level.INFO)).isEmpty();
	}

	@Test
	void concurrent401sReadTheTokenOnceAndAreAllSentAgainWithIt() throws Exception {
		int writers = 8;
		Tokens tokens = new Tokens("t1", "t2", "t3");
		// every request with t1 is held until all of them were sent: all eight took t1 before any 401 came back
		this.server.accept("t2");
		this.server.holdUntil("t1", writers);
		OkHttpClient client = client(token(tokens, Duration.ZERO, TickingClock.fixed(T0)));

		ExecutorService pool = Executors.newFixedThreadPool(writers);
		try {
			List<Future<Integer>> codes = new ArrayList<>();
			for (int i = 0; i < writers; i++) {
				codes.add(pool.submit(() -> get(client)));
			}
			for (Future<Integer> code : codes) {
				assertThat(code.get(30, TimeUnit.SECONDS)).isEqualTo(200);
			}
		}
		finally {
			pool.shutdownNow();
		}

		assertThat(tokens.reads()).isEqualTo(2);
		assertThat(this.server.seen()).hasSize(2 * writers)
			.filteredOn("Bearer t1"::equals)
			.hasSize(writers);
		assertThat(this.log.messages(Level.INFO)).hasSize(1);
		assertThat(this.log.warnings()).isEmpty();
	}

	@Test
	void aFailedReadAfterA401LeavesThe401AndWarnsOnce() throws IOException {
		AtomicInteger reads = new AtomicInteger();
		OkHttpClient client = clientWhoseSecondReadFails(reads, "cannot read /run/token: No such file or directory");

		assertThat(get(client)).isEqualTo(401);
		assertThat(get(client)).isEqualTo(401);

		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t1");
		assertThat(reads).hasValue(3);
		assertThat(this.log.warnings()).containsExactly("The Kubernetes API server refused the bearer token (HTTP 401)"
				+ " and it could not be read again from test tokens: cannot read /run/token: No such file or"
				+ " directory; requests keep failing until a read succeeds");
	}

	@Test
	void aFailedReadsTextCannotEndTheLogLine() throws IOException {
		OkHttpClient client = clientWhoseSecondReadFails(new AtomicInteger(),
				"cannot read /run/tok\nen\u001b[31m\u2028: gone");

		assertThat(get(client)).isEqualTo(401);

		assertThat(this.log.warnings()).containsExactly("The Kubernetes API server refused the bearer token (HTTP 401)"
				+ " and it could not be read again from test tokens: cannot read /run/tok\\u000aen\\u001b[31m\\u2028:"
				+ " gone; requests keep failing until a read succeeds");
	}

	@Test
	void aBodyThatCannotBeSentTwiceIsNotSentAgain() throws IOException {
		Tokens tokens = new Tokens("t1", "t2");
		this.server.accept("t2");
		OkHttpClient client = client(token(tokens, Duration.ZERO, TickingClock.fixed(T0)));
		RequestBody oneShot = new RequestBody() {

			@Override
			public MediaType contentType() {
				return MediaType.get("application/json");
			}

			@Override
			public void writeTo(BufferedSink sink) throws IOException {
				sink.writeUtf8("{}");
			}

			@Override
			public boolean isOneShot() {
				return true;
			}

		};

		try (Response response = client.newCall(request().newBuilder().post(oneShot).build()).execute()) {
			assertThat(response.code()).isEqualTo(401);
		}
		assertThat(this.server.seen()).containsExactly("Bearer t1");
		assertThat(tokens.reads()).isEqualTo(1);
	}

	@Test
	void withAPeriodTheTokenIsReadAgainWhenThePeriodHasPassed() throws IOException {
		Tokens tokens = new Tokens("t1", "t2");
		this.server.accept("t1", "t2");
		TickingClock clock = TickingClock.fixed(T0);
		OkHttpClient client = client(token(tokens, Duration.ofMinutes(1), clock));

		get(client);
		clock.advance(Duration.ofSeconds(59));
		get(client);
		clock.advance(Duration.ofSeconds(1));
		get(client);
		get(client);

		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t1", "Bearer t2", "Bearer t2");
		assertThat(tokens.reads()).isEqualTo(2);
		// a routine rotation: no 401, nothing above DEBUG
		assertThat(this.log.messages(Level.INFO)).isEmpty();
		assertThat(this.log.warnings()).isEmpty();
	}

	@Test
	void aFailedPeriodicReadKeepsTheTokenInUseUntilTheNextPeriod() throws IOException {
		AtomicInteger reads = new AtomicInteger();
		Supplier<String> reader = () -> (reads.incrementAndGet() == 2) ? null : "t" + reads.get();
		this.server.accept("t1", "t3");
		TickingClock clock = TickingClock.fixed(T0);
		OkHttpClient client = client(new RefreshingBearerToken("test tokens", reader, null, Duration.ofMinutes(1),
				clock));

		clock.advance(Duration.ofMinutes(1));
		assertThat(get(client)).isEqualTo(200);
		assertThat(get(client)).isEqualTo(200);
		clock.advance(Duration.ofMinutes(1));
		assertThat(get(client)).isEqualTo(200);

		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t1", "Bearer t3");
		assertThat(reads).hasValue(3);
		assertThat(this.log.warnings()).containsExactly("Could not read the bearer token again from test tokens: test"
				+ " tokens holds no bearer token; the token read before is used until a read succeeds");
	}

	@Test
	void aTokenFileIsTrimmedAndReadAgainAfterA401() throws IOException {
		Path file = Files.writeString(this.tmp.resolve("token"), "t1\n");
		this.server.accept("t1");
		RefreshingBearerToken token = RefreshingBearerToken.fromFile(file);
		OkHttpClient client = client(token);
		assertThat(get(client)).isEqualTo(200);

		Files.writeString(file, "t2\n");
		this.server.accept("t2");
		assertThat(get(client)).isEqualTo(200);

		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t1", "Bearer t2");
		assertThat(token.source()).isEqualTo("token file " + file);
	}

	@Test
	void aTokenThatCannotBeReadAtFirstFailsAtOnce() {
		Path missing = this.tmp.resolve("missing");
		assertThatIllegalStateException().isThrownBy(() -> RefreshingBearerToken.fromFile(missing))
			.withMessageStartingWith("cannot read the bearer token from token file " + missing + ": cannot read");
		assertThatIllegalStateException()
			.isThrownBy(() -> RefreshingBearerToken.of("test tokens", () -> "  \n", null, Duration.ZERO))
			.withMessage("cannot read the bearer token from test tokens: test tokens holds no bearer token");
		assertThatIllegalStateException()
			.isThrownBy(() -> RefreshingBearerToken.of("test tokens", () -> "a\nb", null, Duration.ZERO))
			.withMessage("cannot read the bearer token from test tokens: test tokens holds no usable bearer token"
					+ " (character 1 cannot be sent in an HTTP header)");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RefreshingBearerToken.of("test tokens", () -> "t", null, Duration.ofSeconds(-1)));
	}

	@Test
	void theTokenGivenAtFirstIsUsedWithoutARead() throws IOException {
		Tokens tokens = new Tokens("t2");
		this.server.accept("t2");
		OkHttpClient client = client(RefreshingBearerToken.of("test tokens", tokens, " t1 ", Duration.ZERO));

		assertThat(get(client)).isEqualTo(200);

		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t2");
		assertThat(tokens.reads()).isEqualTo(1);
	}

	/**
	 * Through the sinks' request path: a rotated token is a written Event; a second 401 is the
	 * {@code HTTP_STATUS} 401 refusal it always was (not retried, so the recorder counts it as
	 * {@code rejected_by_server}).
	 */
	@Test
	void theSinksRequestsAreSentAgainAndASecond401IsARefusalAsBefore() throws Exception {
		Tokens tokens = new Tokens("t1", "t2", "t3");
		ApiClient apiClient = new ApiClient().setBasePath("http://127.0.0.1:1");
		RefreshingBearerToken.of("test tokens", tokens, null, Duration.ZERO).installOn(apiClient);
		apiClient.setHttpClient(apiClient.getHttpClient().newBuilder().addInterceptor(this.server).build());
		Sink<CoreV1Event, EventSink.CountPatch> sink = EventsClient.of(apiClient).coreV1Sink(Duration.ofSeconds(10));
		CoreV1Event event = new CoreV1Event().metadata(new V1ObjectMeta().name("e").namespace("ns"));

		this.server.accept("t2");
		assertThat(sink.create(event).getMetadata().getName()).isEqualTo("e");

		this.server.accept("none");
		EventSinkException refusal = catchThrowableOfType(EventSinkException.class,
				() -> sink.create(event));
		assertThat(refusal.kind()).isEqualTo(EventSinkException.Kind.HTTP_STATUS);
		assertThat(refusal.statusCode()).isEqualTo(401);
		assertThat(refusal.isRetryable()).isFalse();
		assertThat(this.server.seen()).containsExactly("Bearer t1", "Bearer t2", "Bearer t2", "Bearer t3");
	}

	/**
	 * A client whose token is {@code t1} at first and whose every later read fails with {@code failure}, against a
	 * server that accepts no token; {@code reads} counts the reads.
	 */
	private OkHttpClient clientWhoseSecondReadFails(AtomicInteger reads, String failure) {
		Supplier<String> reader = () -> {
			if (reads.incrementAndGet() == 1) {
				return "t1";
			}
			throw new IllegalStateException(failure);
		};
		this.server.accept("none");
		return client(new RefreshingBearerToken("test tokens", reader, null, Duration.ZERO, TickingClock.fixed(T0)));
	}

	private static RefreshingBearerToken token(Tokens tokens, Duration period, TickingClock clock) {
		return new RefreshingBearerToken("test tokens", tokens, null, period, clock);
	}

	private OkHttpClient client(RefreshingBearerToken token) {
		return new OkHttpClient.Builder().addInterceptor(token).addInterceptor(this.server).build();
	}

	private static Request request() {
		return new Request.Builder().url("http://127.0.0.1:1/api/v1/namespaces/ns/events").build();
	}

	private static int get(OkHttpClient client) throws IOException {
		try (Response response = client.newCall(request()).execute()) {
			return response.code();
		}
	}

	/** Hands out the given tokens in turn (the last one again once they are used up), counting the reads. */
	private static final class Tokens implements Supplier<String> {

		private final String[] tokens;

		private final AtomicInteger reads = new AtomicInteger();

		Tokens(String... tokens) {
			this.tokens = tokens;
		}

		@Override
		public String get() {
			int n = this.reads.getAndIncrement();
			return this.tokens[Math.min(n, this.tokens.length - 1)];
		}

		int reads() {
			return this.reads.get();
		}

	}

	/**
	 * The API server's authentication, as the last interceptor: 200 with an Event for an accepted token, else 401
	 * with a Status; records the Authorization header of every request. It can hold requests with one token until
	 * a number of them have arrived.
	 */
	private static final class TokenServer implements Interceptor {

		private static final String EVENT = "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\","
				+ "\"namespace\":\"ns\"},\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"ns\"}}";

		private static final String UNAUTHORIZED = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
				+ "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}";

		private final List<String> seen = new CopyOnWriteArrayList<>();

		private volatile Set<String> accepted = Set.of();

		private volatile String heldToken;

		private volatile CountDownLatch held;

		void accept(String... tokens) {
			this.accepted = Set.of(tokens);
		}

		void holdUntil(String token, int requests) {
			this.heldToken = token;
			this.held = new CountDownLatch(requests);
		}

		List<String> seen() {
			return List.copyOf(this.seen);
		}

		@Override
		public Response intercept(Chain chain) throws IOException {
			Request request = chain.request();
			String authorization = request.header("Authorization");
			this.seen.add(authorization);
			CountDownLatch latch = this.held;
			if (latch != null && ("Bearer " + this.heldToken).equals(authorization)) {
				latch.countDown();
				try {
					if (!latch.await(30, TimeUnit.SECONDS)) {
						throw new IOException("the other held requests never came");
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IOException(ex);
				}
			}
			boolean ok = authorization != null && authorization.startsWith("Bearer ")
					&& this.accepted.contains(authorization.substring("Bearer ".length()));
			return new Response.Builder().request(request)
				.protocol(Protocol.HTTP_1_1)
				.code(ok ? 200 : 401)
				.message(ok ? "OK" : "Unauthorized")
				.body(ResponseBody.create(ok ? EVENT : UNAUTHORIZED, MediaType.get("application/json")))
				.build();
		}

	}

}
