// bottleneck/light.js is Bottleneck without its Redis clustering (what @octokit/plugin-throttling uses); same API.
declare module "bottleneck/light.js" {
  import Bottleneck from "bottleneck";
  export default Bottleneck;
}
