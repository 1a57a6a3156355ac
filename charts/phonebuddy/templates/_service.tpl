{{/*
A PhoneBuddy service: ServiceAccount, Service and Deployment. Called with a dict:
  root, component, values (the component's values), args (the `phonebuddy` command line),
  env (YAML list, rendered), and optionally sidecars, volumes, volumeMounts (YAML, rendered),
  startupFailures (probe tries before the container counts as failed) and strategy.
*/}}
{{- define "phonebuddy.service" -}}
{{- $name := include "phonebuddy.name" . -}}
{{- $values := .values -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ $name }}
  labels:
    {{- include "phonebuddy.labels" . | nindent 4 }}
  {{- with .root.Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: false
---
apiVersion: v1
kind: Service
metadata:
  name: {{ $name }}
  labels:
    {{- include "phonebuddy.labels" . | nindent 4 }}
    phonebuddy.dev/metrics: "true"
spec:
  selector:
    {{- include "phonebuddy.selectorLabels" . | nindent 4 }}
  ports:
    - {name: http, port: {{ $values.service.port }}, targetPort: http, protocol: TCP}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $name }}
  labels:
    {{- include "phonebuddy.labels" . | nindent 4 }}
spec:
  {{- if not .autoscaled }}
  replicas: {{ $values.replicas }}
  {{- end }}
  {{- /* On the host's network a new pod cannot start beside the old one (same ports). */}}
  {{- with .strategy | default (ternary "type: Recreate" "" .root.Values.global.hostNetwork) }}
  strategy:
    {{- . | nindent 4 }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "phonebuddy.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "phonebuddy.labels" . | nindent 8 }}
      annotations:
        checksum/values: {{ toJson $values | sha256sum | trunc 16 }}
    spec:
      {{- include "phonebuddy.podSpecCommon" . | nindent 6 }}
      terminationGracePeriodSeconds: {{ .terminationGracePeriodSeconds | default 30 }}
      containers:
        - name: {{ .component }}
          image: {{ include "phonebuddy.image" (dict "root" .root "image" (.image | default $values.image)) }}
          imagePullPolicy: {{ .root.Values.global.image.pullPolicy }}
          args:
            {{- toYaml .args | nindent 12 }}
          {{- include "phonebuddy.containerSecurity" .root | nindent 10 }}
          env:
            - {name: HOME, value: /tmp}
            - {name: TMPDIR, value: /tmp}
            - name: PHONEBUDDY_POD_NAME
              valueFrom:
                fieldRef: {fieldPath: metadata.name}
            {{- .env | nindent 12 }}
            {{- with $values.env }}
            {{- toYaml . | nindent 12 }}
            {{- end }}
          ports:
            - {name: http, containerPort: {{ $values.service.port }}, protocol: TCP}
            {{- with .ports }}
            {{- . | nindent 12 }}
            {{- end }}
          {{- include "phonebuddy.probes" . | nindent 10 }}
          resources:
            {{- toYaml (.resources | default $values.resources) | nindent 12 }}
          volumeMounts:
            - {name: tmp, mountPath: /tmp}
            {{- with .volumeMounts }}
            {{- . | nindent 12 }}
            {{- end }}
        {{- with .sidecars }}
        {{- . | nindent 8 }}
        {{- end }}
      volumes:
        - name: tmp
          emptyDir: {}
        {{- with .volumes }}
        {{- . | nindent 8 }}
        {{- end }}
{{- end -}}
