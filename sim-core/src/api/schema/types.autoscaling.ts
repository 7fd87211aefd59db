/**
 * The field schema of the kinds added after the generated schema: the
 * metrics and autoscaling pieces' autoscaling/v2 HorizontalPodAutoscaler,
 * apiregistration.k8s.io/v1 APIService and metrics.k8s.io/v1beta1
 * NodeMetrics and PodMetrics, and the StatefulSet controller's apps/v1
 * ControllerRevision, written by hand in the format of
 * ./types.generated.ts (the generator's source document predates these
 * kinds here; regenerate both together when it is run again).
 *
 * Mirrors api/openapi-spec/swagger.json (io.k8s.api.autoscaling.v2.*,
 * io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.* and
 * io.k8s.api.apps.v1.ControllerRevision definitions),
 * staging/src/k8s.io/api/autoscaling/v2/types.go,
 * staging/src/k8s.io/api/apps/v1/types.go,
 * staging/src/k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/types.go,
 * staging/src/k8s.io/metrics/pkg/apis/metrics/v1beta1/types.go.
 */

/** One line per type, as in ./types.generated.ts. */
export const EXTRA_TYPE_LINES = `HorizontalPodAutoscaler apiVersion kind metadata:ObjectMeta spec:HorizontalPodAutoscalerSpec status:HorizontalPodAutoscalerStatus
HorizontalPodAutoscalerSpec behavior:HorizontalPodAutoscalerBehavior maxReplicas!:i metrics:[MetricSpec] minReplicas:i scaleTargetRef!:CrossVersionObjectReference
CrossVersionObjectReference apiVersion kind! name!
MetricSpec containerResource:ContainerResourceMetricSource external:ExternalMetricSource object:ObjectMetricSource pods:PodsMetricSource resource:ResourceMetricSource type!:s@MetricSourceType
ResourceMetricSource name!:s@v1.ResourceName target!:MetricTarget
ContainerResourceMetricSource container! name!:s@v1.ResourceName target!:MetricTarget
MetricTarget averageUtilization:i averageValue:q type!:s@MetricTargetType value:q
PodsMetricSource metric!:MetricIdentifier target!:MetricTarget
ObjectMetricSource describedObject!:CrossVersionObjectReference metric!:MetricIdentifier target!:MetricTarget
ExternalMetricSource metric!:MetricIdentifier target!:MetricTarget
MetricIdentifier name! selector:LabelSelector
HorizontalPodAutoscalerBehavior scaleDown:HPAScalingRules scaleUp:HPAScalingRules
HPAScalingRules policies:[HPAScalingPolicy] selectPolicy:s@ScalingPolicySelect stabilizationWindowSeconds:i tolerance:q
HPAScalingPolicy periodSeconds!:i type!:s@HPAScalingPolicyType value!:i
HorizontalPodAutoscalerStatus conditions:[HorizontalPodAutoscalerCondition] currentMetrics:[MetricStatus] currentReplicas:i desiredReplicas!:i lastScaleTime:t observedGeneration:l
HorizontalPodAutoscalerCondition lastTransitionTime:t message reason status!:s@v1.ConditionStatus type!:s@HorizontalPodAutoscalerConditionType
MetricStatus containerResource:ContainerResourceMetricStatus external:ExternalMetricStatus object:ObjectMetricStatus pods:PodsMetricStatus resource:ResourceMetricStatus type!:s@MetricSourceType
ResourceMetricStatus current!:MetricValueStatus name!:s@v1.ResourceName
ContainerResourceMetricStatus container! current!:MetricValueStatus name!:s@v1.ResourceName
MetricValueStatus averageUtilization:i averageValue:q value:q
PodsMetricStatus current!:MetricValueStatus metric!:MetricIdentifier
ObjectMetricStatus current!:MetricValueStatus describedObject!:CrossVersionObjectReference metric!:MetricIdentifier
ExternalMetricStatus current!:MetricValueStatus metric!:MetricIdentifier
APIService apiVersion kind metadata:ObjectMeta spec:APIServiceSpec status:APIServiceStatus
APIServiceSpec caBundle:y group groupPriorityMinimum!:i insecureSkipTLSVerify:b service:ServiceReference_apiregistration version versionPriority!:i
ServiceReference_apiregistration name namespace port:i
APIServiceStatus conditions:[APIServiceCondition]
APIServiceCondition lastTransitionTime:t message reason status!:s@ConditionStatus type!:s@APIServiceConditionType
NodeMetrics apiVersion kind metadata:ObjectMeta timestamp:t usage:{@ResourceName,q}@ResourceList window
PodMetrics apiVersion containers!:[ContainerMetrics] kind metadata:ObjectMeta timestamp:t window
ContainerMetrics name! usage!:{@ResourceName,q}@ResourceList
ControllerRevision apiVersion data:x@runtime.RawExtension kind metadata:ObjectMeta revision!:l`;

/** The kinds above, in the format of KIND_LIST. */
export const EXTRA_KIND_LIST = 'autoscaling/v2/HorizontalPodAutoscaler apiregistration.k8s.io/v1/APIService metrics.k8s.io/v1beta1/NodeMetrics metrics.k8s.io/v1beta1/PodMetrics apps/v1/ControllerRevision';
