package io.github.kubeevents.test.cluster;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MachineEnvironment#dockerAvailable()} and {@link DockerHints}: a machine without anything that
 * could lead to Docker is told in one INFO line, without asking Testcontainers (whose answer logs ERROR lines);
 * wherever Docker might be, Testcontainers' answer is taken, once.
 */
class MachineEnvironmentTests {

	private static final Path HOME = Path.of("/home/dev");

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	private final Logger logger = (Logger) LoggerFactory.getLogger(MachineEnvironment.class);

	private final AtomicInteger asked = new AtomicInteger();

	@BeforeEach
	void capture() {
		this.appender.start();
		this.logger.addAppender(this.appender);
	}

	@AfterEach
	void release() {
		this.logger.detachAppender(this.appender);
	}

	private MachineEnvironment environment(Map<String, String> env, String os, Set<Path> existing, boolean answer) {
		return new MachineEnvironment(new DockerHints(env, HOME, os, existing::contains), () -> {
			this.asked.incrementAndGet();
			return answer;
		});
	}

	private List<String> lines() {
		return this.appender.list.stream().map((event) -> event.getLevel() + " " + event.getFormattedMessage()).toList();
	}

	@Test
	void withoutAnyHintOneInfoLineAndTestcontainersIsNotAsked() {
		MachineEnvironment environment = environment(Map.of("PATH", "/usr/bin"), "Linux", Set.of(), true);
		assertThat(environment.dockerAvailable()).isFalse();
		assertThat(environment.dockerAvailable()).isFalse();
		assertThat(this.asked).hasValue(0);
		assertThat(lines()).containsExactly("INFO No Docker engine on this machine (no DOCKER_HOST, no Testcontainers"
				+ " or Docker configuration, no Docker socket): the K3s test cluster backend is unavailable");
	}

	@Test
	void anyHintLetsTestcontainersDecideOnce() {
		List<MachineEnvironment> environments = List.of(
				environment(Map.of("DOCKER_HOST", "tcp://10.0.0.2:2375"), "Linux", Set.of(), false),
				environment(Map.of("TESTCONTAINERS_HOST_OVERRIDE", "10.0.0.2"), "Linux", Set.of(), false),
				environment(Map.of(), "Linux", Set.of(Path.of("/var/run/docker.sock")), false),
				environment(Map.of("XDG_RUNTIME_DIR", "/run/user/1000"), "Linux",
						Set.of(Path.of("/run/user/1000/docker.sock")), false),
				environment(Map.of(), "Linux", Set.of(HOME.resolve(".testcontainers.properties")), false),
				environment(Map.of(), "Linux", Set.of(HOME.resolve(".docker")), false),
				environment(Map.of(), "Windows 11", Set.of(), false));
		for (MachineEnvironment environment : environments) {
			assertThat(environment.dockerAvailable()).isFalse();
			assertThat(environment.dockerAvailable()).isFalse();
		}
		assertThat(this.asked).hasValue(environments.size());
		assertThat(lines()).isEmpty();
		assertThat(environment(Map.of("DOCKER_HOST", "unix:///d.sock"), "Linux", Set.of(), true).dockerAvailable())
			.isTrue();
	}

	@Test
	void hintsNameWhatWasFound() {
		assertThat(new DockerHints(Map.of(), HOME, "Linux", Set.of(HOME.resolve(".colima/default/docker.sock"))::contains)
			.first()).isEqualTo("/home/dev/.colima/default/docker.sock");
		assertThat(new DockerHints(Map.of(), HOME, "Linux", (path) -> false).first()).isNull();
	}

}
