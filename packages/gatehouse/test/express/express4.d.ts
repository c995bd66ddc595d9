/** `express4` is an npm alias of express@4; Express 5's types describe the part these tests use. */
declare module "express4" {
  import express from "express"
  export default express
}
