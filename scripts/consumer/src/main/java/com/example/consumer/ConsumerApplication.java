package com.example.consumer;

import io.github.kubeevents.EventRecorder;
import io.github.kubeevents.EventType;
import io.github.kubeevents.InvolvedObject;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * What an application does with the starter: it is handed an {@link EventRecorder} and records one Event when it
 * starts. The namespace is {@code consumer.namespace} ({@code default} unless set).
 */
@SpringBootApplication
public class ConsumerApplication {

	public static void main(String[] args) {
		SpringApplication.run(ConsumerApplication.class, args);
	}

	@Bean
	ApplicationRunner recordOnStart(EventRecorder recorder,
			@Value("${consumer.namespace:default}") String namespace) {
		return (args) -> recorder.event(InvolvedObject.of("ConfigMap", "v1", namespace, "consumer-proof"),
				EventType.NORMAL, "ConsumerStarted", "The consumer proof started and recorded this Event");
	}

}
